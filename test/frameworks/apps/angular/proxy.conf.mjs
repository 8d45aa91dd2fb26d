// angular.json's serve.options.proxyConfig names this file; ng serve loads it when it starts.
import { angularProxy } from '@cors-dev-proxy/angular'
import { legacyProxyConf } from './legacy-proxy-conf.mjs'
import { sharedRoutes } from './shared-routes.mjs'

export default angularProxy({ ...sharedRoutes, ...legacyProxyConf })
