import { Component, signal } from '@angular/core'

/** The page: a marker the HMR check edits, and the answer of a call through the proxy. */
@Component({
  selector: 'app-root',
  template: `<h1>HMR-MARK-1</h1>
    <p>{{ answer() }}</p>`,
})
export class AppComponent {
  readonly answer = signal('calling /api/hello')

  constructor() {
    fetch('/api/hello')
      .then((res) => res.json() as Promise<{ path: string }>)
      .then((echo) => this.answer.set(`the backend saw ${echo.path}`))
      .catch((error: unknown) => this.answer.set(`the call failed: ${String(error)}`))
  }
}
