import { ProblemError } from '../kernel/problems.ts'

/** What a store answers for bytes it has kept. */
export interface StoredBlob {
  /** The store's own name for the bytes; only the store interprets it. */
  key: string
  size: number
  /** SHA-256 of the bytes, hex. */
  sha256: string
}

/**
 * Where attachment bytes live, outside the database. The reference server keeps them in a
 * directory or an S3 bucket (`@workgraph/server`'s file and S3 stores); another host plugs in its
 * own (docs/attachments.md).
 */
export interface BlobStore {
  /**
   * Keeps the bytes `content` yields, reading them once as they come. When reading fails (the
   * client went away, or the content threw, as `limitBytes` does past its limit) nothing is kept:
   * the partial bytes are removed and the error is rethrown.
   */
  put(content: AsyncIterable<Uint8Array>): Promise<StoredBlob>
  /** The bytes under `key`, read piece by piece as the consumer pulls. */
  get(key: string): AsyncIterable<Uint8Array>
  /** Removes the bytes; a key that is already gone is not an error. */
  delete(key: string): Promise<void>
}

declare module '../kernel/operation.ts' {
  interface EngineConfig {
    /** Where attachments are kept; without one, uploads fail as a server misconfiguration. */
    blobs?: BlobStore
    /** The largest attachment in bytes (default 25 MiB). */
    maxUploadBytes?: number
  }
}

export const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 * 1024

/**
 * Passes `content` through and throws 413 `payload_too_large` as soon as more than `maxBytes` have
 * come, without reading further (the source is released when the consumer stops).
 */
export async function* limitBytes(
  content: AsyncIterable<Uint8Array>,
  maxBytes: number,
): AsyncIterable<Uint8Array> {
  let size = 0
  for await (const chunk of content) {
    size += chunk.byteLength
    if (size > maxBytes) {
      throw new ProblemError('payload_too_large', `An attachment may be at most ${maxBytes} bytes.`, {
        extensions: { maxBytes },
      })
    }
    yield chunk
  }
}
