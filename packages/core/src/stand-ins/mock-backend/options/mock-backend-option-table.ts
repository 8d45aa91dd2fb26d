/* The mock backend's option in the option table (config/option-table.ts): a route's `mock`. */
import { type RichOptionEntry, richOption } from '../../../config/option-entry.js'

/** A route answered by the mock backend instead of a target: `mock`. */
export const MOCK_BACKEND_OPTION: RichOptionEntry = richOption({
  name: 'mock',
  level: 'route',
  doc: [
    'Answer from the built-in [mock backend](/guide/mock-backend) instead of a target: an echo of',
    'each request, CORS modes, cookies, event streams and a WebSocket echo. An object sets its',
    '[options](#mock-options).',
  ],
  defaultText: 'false',
  example: 'true',
  resolvedBy: 'resolve-echo-backend-options.ts',
})
