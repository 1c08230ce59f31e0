import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** 256 random bits, base64url: session cookies, codes, refresh tokens, client secrets. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/** What the database keeps of a bearer secret: its SHA-256. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url')
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

// The replayed token response is sealed with a key derived from the refresh token it answers, so
// the database alone never yields a usable token: only the holder of the old refresh token can open it.
function replayKey(refreshToken: string): Buffer {
  return createHash('sha256').update(`replay:${refreshToken}`).digest()
}

export function sealReplay(refreshToken: string, plaintext: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', replayKey(refreshToken), iv)
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.')
}

export function openReplay(refreshToken: string, sealed: string): string | null {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'))
  if (!iv || !tag || !body) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', replayKey(refreshToken), iv)
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}

/** PKCE S256: BASE64URL(SHA256(verifier)). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url')
}
