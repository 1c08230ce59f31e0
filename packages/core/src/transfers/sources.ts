import { JSONParser } from '@streamparser/json'
import { CsvError, parse as parseStream } from 'csv-parse'
import { parse } from 'csv-parse/sync'
import { ProblemError } from '../kernel/problems.ts'
import type { ImportFormat } from './schemas.ts'
import { TOOL_READERS } from './tool-formats.ts'

/** One record of a source: its number (1 = first after a CSV header), the file line it starts on, its data. */
export interface SourceRow {
  row: number
  line: number | null
  /**
   * A CSV row by header (a repeated header, as Jira writes it, gives every cell of that name), an
   * NDJSON line's text, or a JSON array item.
   */
  data: unknown
}

/** Characters per write into the CSV parser: the job never holds more than this plus one record. */
const CHUNK = 64 * 1024

const CSV_OPTIONS = { bom: true, skip_empty_lines: true, relax_column_count: true } as const

/** The non-blank lines of an NDJSON source: its rows. */
export const ndjsonLines = (content: string) => content.split(/\r?\n/).filter((l) => l.trim() !== '')

/**
 * Reads a CSV with csv-parse's stream API, fed in chunks, and yields the rows after `from` with the
 * line each starts on: the job reads as far as its step needs, never the whole file into records.
 */
async function* csvRows(content: string, from: number, repeated: boolean): AsyncGenerator<SourceRow> {
  const parser = parseStream({ ...CSV_OPTIONS, info: true })
  const feed = async () => {
    for (let at = 0; at < content.length; at += CHUNK) {
      if (parser.destroyed) return
      // Backpressure: wait until the parser wants more, or is closed by a reader that stopped early.
      if (!parser.write(content.slice(at, at + CHUNK)))
        await new Promise<void>((resolve) => {
          parser.once('drain', resolve)
          parser.once('close', resolve)
        })
    }
    if (!parser.destroyed) parser.end()
  }
  const feeding = feed().catch(() => {})
  let header: string[] | null = null
  let row = 0
  let nextLine = 1
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[]
      info: { lines: number }
    }>) {
      const line = nextLine
      nextLine = info.lines + 1
      if (!header) {
        header = record
        continue
      }
      row++
      if (row <= from) continue
      const data: Record<string, string | string[]> = {}
      record.forEach((cell, i) => {
        const name = header![i]?.trim()
        if (name === undefined) return
        const earlier = data[name]
        if (!repeated) data[name] = cell
        else if (Array.isArray(earlier)) earlier.push(cell)
        else data[name] = [cell]
      })
      yield { row, line, data }
    }
  } finally {
    parser.destroy()
    await feeding
  }
}

/**
 * A streaming parser of the items at `path` of a JSON source (@streamparser/json): each item is
 * built alone and dropped from its array once handed over (`keepStack: false`), so a reader holds
 * one chunk and one issue, never the parsed file. Members of an object at `path` are not items.
 */
function itemParser(path: string, onItem: (item: unknown) => void): JSONParser {
  const parser = new JSONParser({ paths: [path], keepStack: false })
  parser.onValue = ({ value, parent }) => {
    if (Array.isArray(parent)) onItem(value)
  }
  return parser
}

async function* jsonRows(content: string, path: string, from: number): AsyncGenerator<SourceRow> {
  const ready: unknown[] = []
  const parser = itemParser(path, (item) => ready.push(item))
  let row = 0
  for (let at = 0; at < content.length; at += CHUNK) {
    parser.write(content.slice(at, at + CHUNK))
    while (ready.length) {
      const data = ready.shift()
      if (++row > from) yield { row, line: null, data }
    }
  }
}

async function* lineRows(content: string, from: number): AsyncGenerator<SourceRow> {
  const lines = ndjsonLines(content)
  for (let i = from; i < lines.length; i++) yield { row: i + 1, line: i + 1, data: lines[i] }
}

/** The rows of a queued source after the first `from`, in order. */
export function sourceRows(format: ImportFormat, content: string, from: number): AsyncGenerator<SourceRow> {
  if (format === 'ndjson') return lineRows(content, from)
  if (format === 'csv') return csvRows(content, from, false)
  const source = TOOL_READERS[format].source
  return source.kind === 'json'
    ? jsonRows(content, source.path, from)
    : csvRows(content, from, source.repeated)
}

/** The header and row count of a CSV, checked whole when the import is created. */
export function csvShape(content: string): { header: string[]; rows: number } {
  let records: string[][]
  try {
    records = parse(content, CSV_OPTIONS)
  } catch (error) {
    if (error instanceof CsvError) throw invalidSource(`The CSV cannot be read: ${error.message}`)
    throw error
  }
  const [header, ...rows] = records
  if (!header) throw invalidSource('The CSV is empty; it needs a header row.')
  return { header: header.map((h) => h.trim()), rows: rows.length }
}

/**
 * The items at `path` of a JSON source, counted as it streams when the import is created: a file
 * that is not JSON, or has no array there, is refused before anything is queued.
 */
export function jsonItemCount(content: string, path: string, shape: string): number {
  let items = 0
  const read = (parser: JSONParser) => {
    for (let at = 0; at < content.length; at += CHUNK) parser.write(content.slice(at, at + CHUNK))
    if (!parser.isEnded) parser.end()
  }
  try {
    read(itemParser(path, () => items++))
    if (items > 0) return items
    // No items: an empty array is a file with nothing to import; anything else is the wrong file.
    let empty = false
    const container = new JSONParser({ paths: [path.replace(/\.\*$/, '')] })
    container.onValue = ({ value }) => {
      empty = Array.isArray(value)
    }
    read(container)
    if (empty) return 0
  } catch (error) {
    throw invalidSource(`The JSON cannot be read: ${(error as Error).message}`)
  }
  throw invalidSource(`The JSON must be ${shape}.`)
}

export function invalidSource(message: string): ProblemError {
  return new ProblemError('rule_violated', message, { errors: [{ pointer: '/body/content', message }] })
}
