/** @type {import('@react-router/dev/config').Config} */
export default { ssr: true }
