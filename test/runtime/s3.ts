// A local S3-compatible server for the Litestream tests and drills: s3rver over a temp folder.
// s3rver's filesystem store never walks below a common prefix, so a delimiter listing comes back
// without CommonPrefixes, and Litestream's restore (which lists generations/ that way) finds no
// generation; and it lists keys in directory-walk order. `s3Listing` lists everything under the
// prefix, sorts it and groups the keys itself.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver'

export interface LocalS3 {
  /** The LITESTREAM_* environment that points Litestream at this server, for a replica under `path`. */
  env(path: string): Record<string, string>
  endpoint: string
  bucket: string
  /** Every object key under `prefix`. */
  keys(prefix: string): Promise<string[]>
  /** The bytes stored under `prefix`. */
  bytes(prefix: string): Promise<number>
  stop(): Promise<void>
}

interface Listed {
  objects: { key: string }[]
  commonPrefixes: string[]
  isTruncated: boolean
}
type ListObjects = (
  bucket: string,
  options: { delimiter?: string; prefix?: string; maxKeys?: number; startAfter?: string },
) => Promise<Listed>

/**
 * Wraps a store's listObjects to answer as S3 does: keys in lexicographic order (s3rver yields
 * them in directory-walk order, and Litestream takes the first WAL segment listed as the first
 * one), and a delimiter listing with its common prefixes.
 */
export function s3Listing(list: ListObjects): ListObjects {
  return async (bucket, options) => {
    const { delimiter, prefix = '', maxKeys = Infinity, startAfter = '' } = options
    const all = await list(bucket, { prefix, delimiter: undefined, maxKeys: Infinity })
    const prefixes = new Set<string>()
    const objects: Listed['objects'] = []
    for (const object of all.objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
      if (object.key <= startAfter) continue
      const at = delimiter ? object.key.slice(prefix.length).indexOf(delimiter) : -1
      if (at === -1) objects.push(object)
      else prefixes.add(object.key.slice(0, prefix.length + at + delimiter!.length))
    }
    return { objects: objects.slice(0, maxKeys), commonPrefixes: [...prefixes].sort(), isTruncated: objects.length > maxKeys }
  }
}

/** Starts s3rver on 127.0.0.1 (an ephemeral port) with one empty bucket. */
export async function startLocalS3(bucket = 'svc-backups'): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'svc-s3-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] })
  const { port } = await server.run()
  server.store.listObjects = s3Listing(server.store.listObjects.bind(server.store))
  const endpoint = `http://127.0.0.1:${port}`
  return {
    endpoint,
    bucket,
    env: (path) => ({
      LITESTREAM_REPLICA_URL: `s3://${bucket}/${path}`,
      LITESTREAM_ENDPOINT: endpoint,
      LITESTREAM_REGION: 'us-east-1',
      LITESTREAM_FORCE_PATH_STYLE: 'true',
      LITESTREAM_ACCESS_KEY_ID: 'S3RVER',
      LITESTREAM_SECRET_ACCESS_KEY: 'S3RVER',
    }),
    async keys(prefix) {
      const listed = await server.store.listObjects(bucket, { prefix })
      return listed.objects.map((o: { key: string }) => o.key)
    },
    async bytes(prefix) {
      const listed = await server.store.listObjects(bucket, { prefix })
      return listed.objects.reduce((sum: number, o: { size: number }) => sum + o.size, 0)
    },
    async stop() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
