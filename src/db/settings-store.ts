import { generateKeyPairSync } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { newToken } from './credentials.ts'
import type { Connection } from './open.ts'
import { settings } from './schema.ts'

/** Key-value settings the server keeps for itself. */
export class SettingsStore {
  constructor(private readonly connection: Connection) {}

  /**
   * The Ed25519 key statements are signed with (docs/ledger.md): generated on first use and kept
   * here as PKCS #8 PEM, so that a backup carries it and a restore signs with the same key.
   */
  ledgerKeyPem(): string {
    const { db } = this.connection
    const stored = db.select().from(settings).where(eq(settings.key, 'ledger_key')).get()
    if (stored) return stored.value
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()
    db.insert(settings).values({ key: 'ledger_key', value: pem }).onConflictDoNothing().run()
    return db.select().from(settings).where(eq(settings.key, 'ledger_key')).get()!.value
  }

  /** The server secret generated on first start and kept here (used when SVC_SECRET is unset). */
  serverSecret(): string {
    const { db } = this.connection
    const stored = db.select().from(settings).where(eq(settings.key, 'secret')).get()
    if (stored) return stored.value
    db.insert(settings)
      .values({ key: 'secret', value: newToken('', 32) })
      .onConflictDoNothing()
      .run()
    return db.select().from(settings).where(eq(settings.key, 'secret')).get()!.value
  }
}
