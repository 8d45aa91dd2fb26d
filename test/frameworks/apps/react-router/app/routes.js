import { index, route } from '@react-router/dev/routes'

export default [
  index('routes/home.jsx'),
  route('ssr', 'routes/ssr.jsx'),
  route('ssr-missed', 'routes/ssr-missed.jsx'),
]
