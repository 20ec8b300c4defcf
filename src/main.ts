// Composition root on Bun (npm start, the compiled binary). Nothing else runs at import.
import { boot } from './boot'
import { bunRuntime } from './runtime/bun'

boot(bunRuntime, process.env)
