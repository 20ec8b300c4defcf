// Composition root on Deno: deno run --node-modules-dir=manual --sloppy-imports -A src/main-deno.ts
import { boot } from './boot'
import { denoRuntime } from './runtime/deno'

boot(denoRuntime, process.env)
