/** The most characters a stored file name keeps (most file systems allow 255 bytes). */
export const FILE_NAME_MAX = 200

/** C0 and C1 controls, and the bidirectional marks, overrides and isolates that disguise an extension. */
function unsafe(char: string): boolean {
  const c = char.codePointAt(0)!
  return (
    c < 0x20 ||
    (c >= 0x7f && c <= 0x9f) ||
    c === 0x200e ||
    c === 0x200f ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069)
  )
}
/** Characters some systems refuse in a file name, and quotes that headers and shells treat specially. */
const RESERVED = /["*:<>?|`]/g

/**
 * A name safe to store, show and offer for download: only its last path segment (`/` or `\`),
 * without control characters, leading dots or surrounding spaces, capped at `FILE_NAME_MAX`
 * characters keeping the extension; `file` when nothing is left.
 */
export function safeFileName(given: string | undefined): string {
  const base = (given ?? '').normalize('NFC').split(/[/\\]/).at(-1) ?? ''
  const visible = [...base].filter((c) => !unsafe(c)).join('')
  const cleaned = visible.replace(RESERVED, '_').trim().replace(/^\.+/, '').trim()
  const chars = [...cleaned]
  if (chars.length === 0) return 'file'
  if (chars.length <= FILE_NAME_MAX) return cleaned
  const dot = cleaned.lastIndexOf('.')
  const ext = dot > 0 ? [...cleaned.slice(dot)] : []
  const keep = ext.length > 0 && ext.length <= 16 ? ext : []
  return [...chars.slice(0, FILE_NAME_MAX - keep.length), ...keep].join('')
}
