// angular.json's serve.options.proxyConfig names this file; ng serve loads it when it starts.
import { angularProxy } from '@cors-dev-proxy/angular'
import { legacyProxyConf } from '../angular/legacy-proxy-conf.mjs'
import { sharedRoutes } from '../angular/shared-routes.mjs'

export default angularProxy({ ...sharedRoutes, ...legacyProxyConf })
