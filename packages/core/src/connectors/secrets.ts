import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

// Tokens at rest: AES-256-GCM under the server's connector key, `v1.` + base64url(iv | tag | ciphertext).
// The row id is the associated data, so a ciphertext copied onto another row does not decrypt.

function keyOf(encoded: string): Buffer {
  const key = Buffer.from(encoded, 'base64url')
  if (key.length !== 32) throw new Error('connectors.encryptionKey must be 32 bytes, base64url-encoded')
  return key
}

export function seal(key: string, rowId: string, plaintext: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyOf(key), iv)
  cipher.setAAD(Buffer.from(rowId))
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`
}

export function unseal(key: string, rowId: string, sealed: string): string {
  if (!sealed.startsWith('v1.')) throw new Error('Unknown token encryption version')
  const raw = Buffer.from(sealed.slice(3), 'base64url')
  const decipher = createDecipheriv('aes-256-gcm', keyOf(key), raw.subarray(0, 12))
  decipher.setAAD(Buffer.from(rowId))
  decipher.setAuthTag(raw.subarray(12, 28))
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
}
