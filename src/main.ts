// Composition root on Bun (npm start, the compiled binary). Nothing else runs at import.
import { boot } from './boot.ts'
import { bunRuntime } from './runtime/bun.ts'

boot(bunRuntime, process.env)
