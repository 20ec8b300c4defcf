import type { Ctx } from './context.ts'

/** Prints the raw body under --json, else runs the human printer. */
export function show(ctx: Ctx, body: unknown, human: () => void): void {
  if (ctx.json) ctx.out(JSON.stringify(body))
  else human()
}

/**
 * Prints a JSON value as indented `key: value` lines. Used for answers whose
 * exact shape the server may extend (status, test events), so new fields show
 * up without a CLI release.
 */
export function printFields(ctx: Ctx, value: unknown, indent = ''): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item !== null && typeof item === 'object') {
        ctx.out(`${indent}-`)
        printFields(ctx, item, indent + '  ')
      } else ctx.out(`${indent}- ${scalar(item)}`)
    }
    return
  }
  if (value === null || typeof value !== 'object') {
    ctx.out(indent + scalar(value))
    return
  }
  for (const [key, item] of Object.entries(value)) {
    if (item !== null && typeof item === 'object') {
      ctx.out(`${indent}${key}:`)
      printFields(ctx, item, indent + '  ')
    } else ctx.out(`${indent}${key}: ${scalar(item)}`)
  }
}

function scalar(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null')
}

/** Prints rows as left-aligned columns separated by two spaces. */
export function printTable(ctx: Ctx, rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)))
  for (const row of rows)
    ctx.out(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

/**
 * Shows a spinner line on stderr while waiting. Without a terminal (CI logs) a
 * redrawn line is noise, so the text is printed once instead. stop() clears it.
 */
export function spinner(ctx: Ctx, text: string): { stop(): void } {
  if (!ctx.progress) {
    ctx.err(`${text}…`)
    return { stop() {} }
  }
  let frame = 0
  const started = Date.now()
  const draw = () => {
    const seconds = Math.floor((Date.now() - started) / 1000)
    process.stderr.write(`\r${FRAMES[frame++ % FRAMES.length]} ${text} (${seconds}s)`)
  }
  const clear = () => {
    clearInterval(timer)
    process.stderr.write('\r\x1b[2K')
  }
  // Ctrl-C would otherwise leave a half-drawn line in the terminal.
  const interrupted = () => {
    clear()
    process.exit(130)
  }
  draw()
  const timer = setInterval(draw, 100)
  process.once('SIGINT', interrupted)
  return {
    stop() {
      clear()
      process.off('SIGINT', interrupted)
    },
  }
}
