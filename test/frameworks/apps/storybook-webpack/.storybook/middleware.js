// Storybook calls this with its dev server's router when it starts, before the builder's own
// middleware: the routes are read (and checked) at start-up.
import { storybookMiddleware } from '@cors-dev-proxy/webpack'
import { routes } from '../../routes.mjs'

export default storybookMiddleware(routes)
