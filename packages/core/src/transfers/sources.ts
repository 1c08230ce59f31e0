import { CsvError, parse as parseStream } from 'csv-parse'
import { parse } from 'csv-parse/sync'
import { ProblemError } from '../kernel/problems.ts'
import type { ImportFormat } from './schemas.ts'

/** One record of a source: its number (1 = first after a CSV header), the file line it starts on, its data. */
export interface SourceRow {
  row: number
  line: number | null
  /** A CSV row by header (`csv` keeps cells in column order), an NDJSON line's text, or a JSON array item. */
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
async function* csvRows(content: string, from: number): AsyncGenerator<SourceRow> {
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
      const data: Record<string, string> = {}
      record.forEach((cell, i) => {
        const name = header![i]
        if (name !== undefined) data[name.trim()] = cell
      })
      yield { row, line, data }
    }
  } finally {
    parser.destroy()
    await feeding
  }
}

async function* jsonRows(content: string, from: number): AsyncGenerator<SourceRow> {
  const items = JSON.parse(content) as unknown[]
  for (let i = from; i < items.length; i++) yield { row: i + 1, line: null, data: items[i] }
}

async function* lineRows(content: string, from: number): AsyncGenerator<SourceRow> {
  const lines = ndjsonLines(content)
  for (let i = from; i < lines.length; i++) yield { row: i + 1, line: i + 1, data: lines[i] }
}

/** The rows of a queued source after the first `from`, in order. */
export function sourceRows(format: ImportFormat, content: string, from: number): AsyncGenerator<SourceRow> {
  if (format === 'ndjson') return lineRows(content, from)
  if (format === 'github_json') return jsonRows(content, from)
  return csvRows(content, from)
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

/** The items of a JSON array source, checked when the import is created. */
export function jsonArrayLength(content: string): number {
  let parsed: unknown
  try {
    parsed = JSON.parse(content)
  } catch (error) {
    throw invalidSource(`The JSON cannot be read: ${(error as Error).message}`)
  }
  if (!Array.isArray(parsed)) throw invalidSource('The JSON must be an array of issues.')
  return parsed.length
}

export function invalidSource(message: string): ProblemError {
  return new ProblemError('rule_violated', message, { errors: [{ pointer: '/body/content', message }] })
}
