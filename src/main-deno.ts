// Composition root on Deno: deno run --node-modules-dir=manual -A src/main-deno.ts
import { boot } from './boot.ts'
import { denoRuntime } from './runtime/deno.ts'

boot(denoRuntime, process.env)
