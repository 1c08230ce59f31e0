/**
 * One client process of `bench/sse.ts`: opens its share of the SSE connections, keeps every
 * task.created latency and hands them over once when asked. It shares the two cores with the server,
 * so every delivery costs it as little as possible: raw sockets read through `onread` into one buffer
 * shared by all of them (no HTTP parser, stream, `Buffer` or `data` event per read), frames found by a
 * byte search, numbers read from the bytes, no message per delivery. It still checks what the bench
 * promises: every frame complete (up to its blank line), titles strictly increasing per connection
 * (no duplicate, no reordering), and the count per connection (the bench compares it with the writes).
 */
import { connect as netConnect } from 'node:net'

const { url, tokens, count } = JSON.parse(process.argv.at(-1)!) as {
  url: string
  tokens: string[]
  count: number
}
const { hostname, port } = new URL(url)

// Per delivery: since the write was sent (the title's timestamp) and since the event's createdAt
// (the server's clock inside the write, so the writer's request and queue are left out).
const sinceSent: number[] = []
const sinceCreated: number[] = []
const errors: string[] = []
const received: number[] = new Array(count).fill(0)

const QUOTE = 0x22
const ZERO = 0x30
const TITLE = Buffer.from('"title":"t')
const BLANK_LINE = Buffer.from('\n\n')
// Every read lands here, then is scanned before the next read: one buffer serves every socket.
const shared = Buffer.allocUnsafe(256 * 1024)

/** Decimal digits at `from` up to the first non-digit. */
function digitsAt(buf: Buffer, from: number): number {
  let value = 0
  for (let i = from; i < buf.length; i++) {
    const d = buf[i]! - ZERO
    if (d < 0 || d > 9) break
    value = value * 10 + d
  }
  return value
}

/** `YYYY-MM-DDTHH:MM:SS.mmmZ` at `at`, in ms since the epoch (UTC). */
function isoAt(buf: Buffer, at: number): number {
  const n = (from: number, len: number) => {
    let value = 0
    for (let i = from; i < from + len; i++) value = value * 10 + buf[i]! - ZERO
    return value
  }
  return Date.UTC(
    n(at, 4),
    n(at + 5, 2) - 1,
    n(at + 8, 2),
    n(at + 11, 2),
    n(at + 14, 2),
    n(at + 17, 2),
    n(at + 20, 3),
  )
}

function open(i: number): Promise<void> {
  return new Promise<void>((settle) => {
    let carry: Buffer | null = null
    let headed = false
    let last = 0
    const onRead = (nread: number, into: Buffer): boolean => {
      const now = Date.now()
      // What a previous read left unfinished is copied out of the shared buffer; it is rare.
      const buf: Buffer = carry ? Buffer.concat([carry, into.subarray(0, nread)]) : into.subarray(0, nread)
      carry = null
      if (!headed) {
        headed = true
        if (buf.toString('latin1', 9, 12) !== '200') errors.push(buf.toString('latin1', 0, 12))
        settle()
      }
      // A frame ends with a blank line; JSON escapes newlines, so `\n\n` is only ever an end.
      let from = 0
      for (;;) {
        const end = buf.indexOf(BLANK_LINE, from)
        if (end < 0) break
        const title = buf.indexOf(TITLE, from)
        if (title >= 0 && title < end) {
          const sent = digitsAt(buf, title + TITLE.length)
          // Titles grow with every write: a repeat or a step back is a duplicate or a reordering.
          if (sent <= last) errors.push(`connection ${i}: t${sent} after t${last}`)
          last = sent
          received[i]!++
          sinceSent.push(now - sent)
          // The frame ends with the event's own createdAt: `"createdAt":"<24 characters>"}`.
          if (buf[end - 2] !== QUOTE) errors.push(`connection ${i}: a frame without its createdAt last`)
          sinceCreated.push(now - isoAt(buf, end - 26))
        }
        from = end + 2
      }
      if (from < buf.length) carry = Buffer.from(buf.subarray(from))
      return true
    }
    const socket = netConnect({
      host: hostname,
      port: Number(port),
      onread: { buffer: shared, callback: onRead },
    })
    socket.write(
      `GET /v1/stream/sse?from=now&kinds=task.created HTTP/1.1\r\nhost: ${hostname}:${port}\r\n` +
        `authorization: Bearer ${tokens[i % tokens.length]}\r\naccept: text/event-stream\r\n\r\n`,
    )
    socket.on('error', (error) => {
      errors.push(error.message)
      settle()
    })
  })
}

// Connect in waves, so the server's accept backlog never overflows.
for (let i = 0; i < count; i += 100) {
  await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, k) => open(i + k)))
}
process.send!({ open: count })
// `start` when the writes begin (CPU from then on), `report` when they are over.
let cpuAtStart = process.cpuUsage()
process.on('message', (m: string) => {
  if (m === 'start') {
    cpuAtStart = process.cpuUsage()
    return
  }
  const cpu = process.cpuUsage(cpuAtStart)
  process.send!(
    {
      sinceSent,
      sinceCreated,
      errors,
      fewest: Math.min(...received),
      most: Math.max(...received),
      cpuMs: (cpu.user + cpu.system) / 1000,
    },
    () => process.exit(0),
  )
})
