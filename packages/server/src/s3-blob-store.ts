import { createHash, randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import { DeleteObjectCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import type { BlobStore } from '@workgraph/core'

const KEY = /^[0-9a-f]{2}\/[0-9a-f-]{36}$/

export interface S3BlobStoreOptions {
  bucket: string
  /** Put before every key, e.g. `workgraph/`; the keys recorded in the database do not include it. */
  prefix?: string
  /** Any S3 API (MinIO, Ceph, R2, …); AWS itself by default. */
  endpoint?: string
  /** Default `us-east-1`. */
  region?: string
  /** Buckets as a path (`host/bucket/key`) rather than a host name, as MinIO wants. */
  forcePathStyle?: boolean
  /** Without them, the SDK's default chain (environment, profile, instance role, …). */
  credentials?: { accessKeyId: string; secretAccessKey: string }
}

/**
 * Attachment bytes as objects of an S3 bucket, named like the file store's files (`ab/<uuid>`,
 * after `prefix`), so a `BLOB_DIR` copied under the prefix is readable as is. An upload streams
 * in 5 MiB parts as it comes; when reading it fails the multipart upload is aborted, which
 * discards its parts, and a blob smaller than a part is only sent once complete.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const prefix = options.prefix ?? ''
  const Bucket = options.bucket
  const s3 = new S3Client({
    region: options.region ?? 'us-east-1',
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.forcePathStyle ? { forcePathStyle: true } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  })
  const objectOf = (key: string) => {
    // Keys come from this store; anything else is refused rather than named in the bucket.
    if (!KEY.test(key)) throw new Error(`Not a blob key of this store: ${key}`)
    return `${prefix}${key}`
  }
  return {
    async put(content) {
      const id = randomUUID()
      const key = `${id.slice(0, 2)}/${id}`
      const hash = createHash('sha256')
      let size = 0
      let reading: { error: unknown } | undefined
      async function* measured() {
        try {
          for await (const chunk of content) {
            hash.update(chunk)
            size += chunk.byteLength
            yield chunk
          }
        } catch (error) {
          reading = { error }
          throw error
        }
      }
      // One part in flight at a time: an upload holds about two parts in memory, and a slow
      // store slows the client down rather than filling the server's memory.
      const body = Readable.from(measured())
      const upload = new Upload({
        client: s3,
        params: { Bucket, Key: `${prefix}${key}`, Body: body },
        queueSize: 1,
      })
      try {
        // On a failure Upload aborts the multipart upload (its parts go) and rethrows the error.
        await upload.done()
      } catch (error) {
        // A store that failed leaves the content unread: release its source.
        body.destroy()
        // When the abort fails too, Upload throws that instead; the caller needs the reading error
        // (a 413 stays a 413). The parts left are for the bucket's lifecycle rule (docs/attachments.md).
        throw reading ? reading.error : error
      }
      return { key, size, sha256: hash.digest('hex') }
    },
    async *get(key) {
      const Key = objectOf(key)
      const { Body } = await s3.send(new GetObjectCommand({ Bucket, Key }))
      yield* Body as Readable
    },
    async delete(key) {
      const Key = objectOf(key)
      // S3 answers a missing key with success, as this interface wants.
      await s3.send(new DeleteObjectCommand({ Bucket, Key }))
    },
  }
}
