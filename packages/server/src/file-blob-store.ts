import { createHash, randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { BlobStore } from '@workgraph/core'

const KEY = /^[0-9a-f]{2}\/[0-9a-f-]{36}$/

/**
 * Attachment bytes as files under `directory`, two levels deep (`ab/<uuid>`). An upload is written
 * to a temporary name and renamed into place once complete, so a reader never sees half a file
 * and a refused or broken upload leaves nothing behind.
 */
export function createFileBlobStore(directory: string): BlobStore {
  const pathOf = (key: string) => {
    // Keys come from this store; anything else is refused rather than joined into a path.
    if (!KEY.test(key)) throw new Error(`Not a blob key of this store: ${key}`)
    return join(directory, key)
  }
  return {
    async put(content) {
      const id = randomUUID()
      const key = `${id.slice(0, 2)}/${id}`
      const path = join(directory, key)
      const partial = `${path}.partial`
      await mkdir(dirname(path), { recursive: true })
      const hash = createHash('sha256')
      let size = 0
      async function* measured() {
        for await (const chunk of content) {
          hash.update(chunk)
          size += chunk.byteLength
          yield chunk
        }
      }
      const file = createWriteStream(partial, { flags: 'wx' })
      try {
        await pipeline(measured, file)
        await rename(partial, path)
      } catch (error) {
        // An upload refused at once (all its bytes there, over the limit) can fail while the file is
        // still being opened; removed before it closes, it would be created after its removal.
        if (!file.closed) await new Promise<void>((closed) => file.once('close', () => closed()))
        await rm(partial, { force: true })
        throw error
      }
      return { key, size, sha256: hash.digest('hex') }
    },
    get(key) {
      return createReadStream(pathOf(key))
    },
    async delete(key) {
      await rm(pathOf(key), { force: true })
    },
  }
}

/** Where attachments go by default beside a SQLite database: a `blobs` directory next to its file. */
export function blobDirectoryBeside(sqliteFile: string): string {
  return join(dirname(sqliteFile), 'blobs')
}
