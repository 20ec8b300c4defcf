// The /verify page's script (src/http/pages/verify.ts): a partner picks a statement file (and,
// optionally, an earlier one) and it is checked here, in the browser, with the same verifier as
// `svc verify` (src/domain/statement.ts). The expected signing key is the one the page was served
// with, or one pasted or fetched by the partner. Nothing is sent anywhere; a saved copy of the
// page works offline. `bun web/build.ts` bundles it into src/http/pages/verify-script.gen.ts.
import { ledgerKeyOf, type Statement, statementOf, verifyStatement } from '../src/domain/statement.ts'

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T

async function readFile(input: HTMLInputElement): Promise<Statement | null | undefined> {
  const file = input.files?.[0]
  if (!file) return undefined
  try {
    return statementOf(JSON.parse(await file.text()))
  } catch {
    return null
  }
}

/** The key the statement must be signed with: pasted JSON, a fetched URL, or the page's own. */
async function expectedKey(): Promise<Statement['public_key'] | null | 'unreadable'> {
  const text = $<HTMLTextAreaElement>('key').value.trim()
  if (text === '') return null
  try {
    const value = /^https:\/\//i.test(text) ? await (await fetch(text)).json() : JSON.parse(text)
    return ledgerKeyOf(value) ?? 'unreadable'
  } catch {
    return 'unreadable'
  }
}

function say(ok: boolean, words: string): void {
  const out = $('verdict')
  out.className = ok ? 'ok' : 'bad'
  out.textContent = words
}

async function check(event: Event): Promise<void> {
  event.preventDefault()
  const statement = await readFile($<HTMLInputElement>('statement'))
  if (!statement) return say(false, statement === null ? 'That file is not a statement.' : 'Choose a statement file first.')
  const previous = await readFile($<HTMLInputElement>('previous'))
  if (previous === null) return say(false, 'The earlier file is not a statement.')
  const key = await expectedKey()
  if (key === 'unreadable')
    return say(false, 'The signing key is not an Ed25519 key (a JWK with kty OKP, crv Ed25519 and x), or its URL did not answer one.')
  const verdict = await verifyStatement(statement, previous ?? undefined, key ?? undefined)
  if (!verdict.ok) return say(false, `Does not verify: ${verdict.problem}.`)
  say(
    !!key,
    `Verified: ${verdict.entries} ${verdict.entries === 1 ? 'entry' : 'entries'} of partner ${statement.partner_id}, month ${statement.month}` +
      (previous ? `; it extends the earlier statement unchanged` : '') +
      (key ? ', signed by the expected key.' : ". Warning: the signing key was not checked (give the server's key above)."),
  )
}

$('form').addEventListener('submit', (event) => {
  check(event).catch((error: unknown) => say(false, `Could not check: ${String(error)}`))
})
