// Nitro's own /api: never reached while the cors-dev-proxy route '/api' is served first.
export default () => ({ servedBy: 'nitro' })
