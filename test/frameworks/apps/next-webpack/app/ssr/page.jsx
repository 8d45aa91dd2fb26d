// The custom-server app's page, shared: Next reads segment options from this file itself.
export const dynamic = 'force-dynamic'
export { default } from '../../../next/app/ssr/page.jsx'
