import { describe, expect, it } from 'vitest'
import { type EndpointFacts, servedEndpointsOf } from '../../src/inspector/served-endpoints.js'

const OFF: EndpointFacts = { inspector: false, overlay: false, switches: false, mocks: false }

describe('servedEndpointsOf, the one rule for the endpoints under /__cors-dev-proxy/', () => {
  it.each<[string, Partial<EndpointFacts>, ReturnType<typeof servedEndpointsOf>]>([
    ['nothing on: no endpoint (the path is the app’s)', {}, undefined],
    ['a route with mocks alone changes nothing', { mocks: true }, undefined],
    [
      'the defaults',
      { inspector: true, overlay: true },
      { inspector: true, explain: true, control: false, mocks: false },
    ],
    [
      'inspector: false keeps the overlay',
      { overlay: true },
      { inspector: false, explain: true, control: false, mocks: false },
    ],
    [
      'live switches alone serve the page and /control',
      { switches: true },
      { inspector: false, explain: false, control: true, mocks: false },
    ],
    [
      '"Mock this answer" needs the inspector, which keeps the exchanges',
      { overlay: true, mocks: true },
      { inspector: false, explain: true, control: false, mocks: false },
    ],
    [
      'everything',
      { inspector: true, overlay: true, switches: true, mocks: true },
      { inspector: true, explain: true, control: true, mocks: true },
    ],
  ])('%s', (_name, facts, expected) => {
    expect(servedEndpointsOf({ ...OFF, ...facts })).toEqual(expected)
  })
})
