// angular.json's serve.options.proxyConfig names this file; ng serve loads it when it starts.
import { angularProxy } from '@cors-dev-proxy/angular'
import { legacyProxyConf } from '../angular/legacy-proxy-conf.mjs'
import { routes } from '../routes.mjs'

export default angularProxy({ ...routes, ...legacyProxyConf })
