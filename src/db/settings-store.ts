import { eq } from 'drizzle-orm'
import { newToken } from './credentials.ts'
import type { Connection } from './open.ts'
import { settings } from './schema.ts'

/** Key-value settings the server keeps for itself. */
export class SettingsStore {
  constructor(private readonly connection: Connection) {}

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
