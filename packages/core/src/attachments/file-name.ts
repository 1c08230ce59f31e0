/** The most characters a stored file name keeps (most file systems allow 255 bytes). */
export const FILE_NAME_MAX = 200

/** C0 and C1 controls, and the bidirectional overrides and isolates that disguise an extension. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
/** Characters some systems refuse in a file name, and quotes that headers and shells treat specially. */
const RESERVED = /["*:<>?|`]/g

/**
 * A name safe to store, show and offer for download: only its last path segment (`/` or `\`),
 * without control characters, leading dots or surrounding spaces, capped at `FILE_NAME_MAX`
 * characters keeping the extension; `file` when nothing is left.
 */
export function safeFileName(given: string | undefined): string {
  const base = (given ?? '').normalize('NFC').split(/[/\\]/).at(-1) ?? ''
  const cleaned = base.replace(UNSAFE, '').replace(RESERVED, '_').trim().replace(/^\.+/, '').trim()
  const chars = [...cleaned]
  if (chars.length === 0) return 'file'
  if (chars.length <= FILE_NAME_MAX) return cleaned
  const dot = cleaned.lastIndexOf('.')
  const ext = dot > 0 ? [...cleaned.slice(dot)] : []
  const keep = ext.length > 0 && ext.length <= 16 ? ext : []
  return [...chars.slice(0, FILE_NAME_MAX - keep.length), ...keep].join('')
}
