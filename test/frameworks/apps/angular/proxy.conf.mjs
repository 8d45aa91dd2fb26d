// angular.json's serve.options.proxyConfig names this file; ng serve loads it when it starts.
import { angularProxy } from '@cors-dev-proxy/angular'
import { routes } from '../routes.mjs'
import { legacyProxyConf } from './legacy-proxy-conf.mjs'

export default angularProxy({ ...routes, ...legacyProxyConf })
