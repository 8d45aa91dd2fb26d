import { describeAdapter } from './adapter-suite.js'
import { describeHooks } from './hooks-suite.js'
import { rsbuildHarness } from './rsbuild-server.js'

describeAdapter(rsbuildHarness)
describeHooks(rsbuildHarness)
