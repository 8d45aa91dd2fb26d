import { Probe } from './probe.js'

export default { title: 'Proxy', component: Probe }

export const Page = {}
