import { describe, expect, test } from 'bun:test'
import { NOW, seedProgram, tempDatabase } from './temp-database.ts'

// The catalog keeps links, keys and origins in memory; the stores that write them drop the copies
// themselves. Each test reads through a store (filling the catalog), writes through a store, and
// reads again, with nothing in between: no call a caller could forget.
const db = tempDatabase()

const program = () =>
  seedProgram(db(), ({ programId }) => {
    const partnerId = db().stores.programs.createPartner({ programId, createdAt: NOW })
    const link = db().stores.programs.createLink({ programId, partnerId, shortLink: 'ada', createdAt: NOW })
    return { linkId: 'id' in link ? link.id : 0 }
  })

describe('the catalog is invalidated where programs, links and keys are written', () => {
  test('a regenerated key stops working at once; the new one works', async () => {
    const { programId, apiKey } = await program()
    const { programs } = db().stores
    expect(programs.findKey(apiKey)?.program.id).toBe(programId)
    const fresh = await db().writer.run(() => programs.issueKey(programId, NOW))
    expect(programs.findKey(apiKey)).toBeNull()
    expect(programs.findKey(fresh)?.program.id).toBe(programId)
  })

  test('a key marked for rotation is read with its deadline at once (past it, the key is retired)', async () => {
    const { programId, apiKey } = await program()
    const { programs } = db().stores
    expect(programs.findKey(apiKey)?.key.rotateBy).toBeNull()
    await db().writer.run(() => programs.markRotation(programId, NOW, NOW - 1))
    expect(programs.findKey(apiKey)?.key.rotateBy).toBe(NOW - 1)
  })

  test('a link turned off is read as inactive at once, and a new domain is a known origin at once', async () => {
    const { programId, linkId } = await program()
    const { programs, tracking } = db().stores
    expect(tracking.findLink('ada')?.active).toBe(true)
    expect(programs.browserOrigins()).toEqual([{ domain: 'shop.test', siteUrl: 'https://shop.test', allowedOrigins: [] }])
    await db().writer.run(() => programs.setLinkActive(linkId, false))
    expect(tracking.findLink('ada')?.active).toBe(false)
    await db().writer.run(() => programs.updateProgram(programId, { domain: 'other.test', siteUrl: 'https://other.test' }))
    expect(programs.browserOrigins()).toEqual([{ domain: 'other.test', siteUrl: 'https://other.test', allowedOrigins: [] }])
  })

  test('a change rolled back with its unit leaves no copy of the uncommitted row behind', async () => {
    const { linkId } = await program()
    const { programs, tracking } = db().stores
    const failing = db().writer.run(() => {
      programs.setLinkActive(linkId, false)
      // Read (and copied) inside the unit, before the rollback undoes the write.
      expect(tracking.findLink('ada')?.active).toBe(false)
      throw new Error('refused after the write')
    })
    await expect(failing).rejects.toThrow('refused after the write')
    expect(tracking.findLink('ada')?.active).toBe(true)
  })
})
