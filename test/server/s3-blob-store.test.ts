import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readSettings, SettingsError } from '@workgraph/server'
import { createS3BlobStore } from '@workgraph/server/s3'
import S3rver from 's3rver'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES } from '../support/databases.ts'
import { startTestServer } from '../support/http.ts'
import { newWorkspace } from '../support/workspace.ts'

const BUCKET = 'attachments'
const MiB = 1024 * 1024
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Every file s3rver keeps for the bucket on disk: objects and the parts of unfinished multipart uploads alike. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

async function* chunksOf(bytes: Uint8Array, size: number) {
  for (let at = 0; at < bytes.byteLength; at += size) yield bytes.subarray(at, at + size)
}

async function collect(content: AsyncIterable<Uint8Array>) {
  const chunks: Uint8Array[] = []
  for await (const chunk of content) chunks.push(chunk)
  return Buffer.concat(chunks)
}

// A real S3 API (s3rver, a fake S3 server over the local disk) on a free port of 127.0.0.1.
describe('S3 blob store', () => {
  const directory = mkdtempSync(join(tmpdir(), 'wg-s3rver-'))
  const bucketFiles = () => filesUnder(join(directory, BUCKET))
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: [{ name: BUCKET, configs: [] }] })
  // s3rver 3.7 answers AbortMultipartUpload with 405; in front of it, this does what S3 does (drops
  // the upload's parts, which s3rver keeps in `._S3rver_uploads/<id>`), unless told to refuse.
  let refuseAbort = false
  const handle = s3rver.callback()
  const server = createServer((req, res) => {
    const uploadId = new URL(req.url!, 'http://s3').searchParams.get('uploadId')
    if (req.method !== 'DELETE' || !uploadId) return handle(req, res)
    if (!refuseAbort) rmSync(join(directory, BUCKET, '._S3rver_uploads', uploadId), { recursive: true })
    res.writeHead(refuseAbort ? 405 : 204).end()
  })
  let store: ReturnType<typeof createS3BlobStore>
  beforeAll(async () => {
    await s3rver.configureBuckets()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    store = createS3BlobStore({
      bucket: BUCKET,
      prefix: 'wg/',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      // s3rver's fixed credentials; it checks the signatures.
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    })
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('keeps bytes streamed in chunks over several multipart parts, with their size and sha256', async () => {
    const bytes = randomBytes(12 * MiB + 123)
    const stored = await store.put(chunksOf(bytes, 256 * 1024))
    expect(stored).toEqual({
      key: expect.stringMatching(/^[0-9a-f]{2}\/[0-9a-f-]{36}$/),
      size: bytes.byteLength,
      sha256: sha256(bytes),
    })
    expect((await collect(store.get(stored.key))).equals(bytes)).toBe(true)
    // The prefix names the object; the key the database records does not include it.
    expect(bucketFiles().some((path) => path.includes(`${join(BUCKET, 'wg')}`))).toBe(true)
    await store.delete(stored.key)
    expect(bucketFiles()).toEqual([])
  })

  it('keeps nothing when reading the content fails, before the first part or after parts were sent', async () => {
    const failure = new Error('client went away')
    async function* failingAfter(bytes: number) {
      yield* chunksOf(randomBytes(bytes), MiB)
      throw failure
    }
    await expect(store.put(failingAfter(100_000))).rejects.toBe(failure)
    expect(bucketFiles()).toEqual([])
    // Past one 5 MiB part: a multipart upload was started and a part sent, then aborted.
    await expect(store.put(failingAfter(7 * MiB))).rejects.toBe(failure)
    expect(bucketFiles()).toEqual([])
  })

  it('rethrows the reading error, not the failed abort, when the store refuses the abort', async () => {
    refuseAbort = true
    const tooLarge = new Error('payload too large')
    async function* failing() {
      yield* chunksOf(randomBytes(6 * MiB), MiB)
      throw tooLarge
    }
    try {
      await expect(store.put(failing())).rejects.toBe(tooLarge)
    } finally {
      refuseAbort = false
      // The parts S3 would keep until the bucket's lifecycle rule drops them.
      rmSync(join(directory, BUCKET, '._S3rver_uploads'), { recursive: true, force: true })
    }
  })

  it('deletes a key twice without error, after which reading it fails', async () => {
    const stored = await store.put(chunksOf(Buffer.from('short lived'), 4))
    await store.delete(stored.key)
    await store.delete(stored.key)
    await expect(collect(store.get(stored.key))).rejects.toThrow()
    expect(bucketFiles()).toEqual([])
  })

  it('refuses a key it did not make', async () => {
    await expect(collect(store.get('../elsewhere'))).rejects.toThrow(/Not a blob key/)
    await expect(store.delete('wg/../x')).rejects.toThrow(/Not a blob key/)
  })

  // The store is independent of the database, so the HTTP round trip runs on SQLite only.
  describe('through the HTTP API', () => {
    let server: Awaited<ReturnType<typeof startTestServer>>
    beforeAll(async () => {
      server = await startTestServer(DATABASES.find((db) => db.name === 'sqlite')!, {
        config: { blobs: store },
      })
    })
    afterAll(() => server?.drop())

    it('uploads, downloads and deletes an attachment kept in the bucket', async () => {
      const ws = await newWorkspace(server)
      const task = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'With files' })
      const bytes = randomBytes(300 * 1024)
      const base = `/v1/orgs/${ws.orgId}/attachments`
      const query = new URLSearchParams({ recordType: 'task', recordId: task.body.id, fileName: 'data.bin' })
      const created = await server.request('POST', `${base}?${query}`, {
        token: ws.owner.token,
        rawBody: bytes,
        headers: { 'content-type': 'application/octet-stream' },
      })
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({ size: bytes.byteLength, sha256: sha256(bytes) })
      expect(bucketFiles().length).toBeGreaterThan(0)

      const res = await fetch(`${server.url}${base}/${created.body.id}/content`, {
        headers: { authorization: `Bearer ${ws.owner.token}` },
      })
      expect(res.status).toBe(200)
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true)

      expect((await ws.api.delete(`${base}/${created.body.id}`)).status).toBe(204)
      expect(bucketFiles()).toEqual([])
    })
  })
})

describe('S3 settings', () => {
  it('select the S3 store with S3_BUCKET, and pair the credentials', () => {
    expect(readSettings({ ENV_FILE: '' }).s3).toBeUndefined()
    expect(
      readSettings({
        ENV_FILE: '',
        S3_BUCKET: 'files',
        S3_ENDPOINT: 'http://minio:9000',
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_PREFIX: 'wg/',
      }).s3,
    ).toEqual({
      bucket: 'files',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      prefix: 'wg/',
    })
    expect(readSettings({ ENV_FILE: '', S3_BUCKET: 'files' }).s3).toEqual({
      bucket: 'files',
      region: 'us-east-1',
      forcePathStyle: false,
    })
    expect(() => readSettings({ ENV_FILE: '', S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'id' })).toThrow(
      SettingsError,
    )
    expect(() => readSettings({ ENV_FILE: '', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE/)
  })
})
