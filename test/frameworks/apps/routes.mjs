export const routes = {
  '/api': process.env.CDP_BACKEND,
  '/live': { target: `${process.env.CDP_BACKEND}/ws`, ws: true },
  '/down': process.env.CDP_DOWN,
}
