import { isDevMode } from '@angular/core'
import { bootstrapApplication } from '@angular/platform-browser'
import { AppComponent } from './app/app.component'

// cors-dev-proxy's overlay, in development only: ng serve's proxyConfig cannot add a script to the page.
if (isDevMode())
  document.head.append(
    Object.assign(document.createElement('script'), { type: 'module', src: '/__cors-dev-proxy/client.js' }),
  )

bootstrapApplication(AppComponent).catch((error: unknown) => console.error(error))
