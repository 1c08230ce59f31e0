/** How many leading bytes the sniffer reads (what `file-type` needs for every format it knows). */
export const SNIFF_BYTES = 4100

/** Types a browser would render or run as a document: never served as such. */
const ACTIVE =
  /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|application\/xml|text\/xml|application\/(x-)?javascript|text\/javascript)$/

const TEXT = 'text/plain; charset=utf-8'
const BINARY = 'application/octet-stream'

/**
 * The content type of a file from its first bytes, never from what the client claims: a format
 * `file-type` recognises by its magic numbers, except markup and script; UTF-8 text without NUL
 * as `text/plain` (so an HTML page is plain text); anything else `application/octet-stream`.
 */
export async function sniffContentType(head: Uint8Array, complete: boolean): Promise<string> {
  // Loaded on the first upload, not at every start (a start parses what it imports).
  const { fileTypeFromBuffer } = await import('file-type')
  const found = await fileTypeFromBuffer(head)
  if (found) return ACTIVE.test(found.mime) ? (isText(head, complete) ? TEXT : BINARY) : found.mime
  return isText(head, complete) ? TEXT : BINARY
}

/** UTF-8 without NUL; a character cut at the end of a partial head is allowed. */
function isText(head: Uint8Array, complete: boolean): boolean {
  if (head.length === 0 || head.includes(0)) return false
  let bytes = head
  if (!complete) {
    // Drop a trailing partial sequence: up to 3 bytes of a multi-byte character.
    let cut = head.length
    for (let i = head.length - 1; i >= Math.max(0, head.length - 3); i--) {
      if ((head[i]! & 0xc0) === 0x80) continue
      if (head[i]! >= 0xc0) cut = i
      break
    }
    bytes = head.subarray(0, cut)
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}
