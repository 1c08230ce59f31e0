import { ID_PREFIXES } from '@workgraph/core'
import fc from 'fast-check'

/** A request before it is sent: mutations edit it in place. */
export interface Draft {
  params: Record<string, string>
  /** Path segments sent without percent-encoding (malformed escapes, traversal). */
  rawParams: Set<string>
  query: [string, string][]
  headers: Record<string, string>
  body: unknown
  /** Sent as is instead of JSON.stringify(body). */
  rawBody?: string
}

export type Mutation = { name: string; apply(draft: Draft): void }

const BRANDS = Object.values(ID_PREFIXES)
const ULID = fc.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/)

/** Control characters, NUL, lone surrogates, bidi overrides and other text that trips storage or logs. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\u0001\u0002\u001f\u007f',
    '\ud800',
    'x\udfffy',
    '\u202e\u2066',
    '\r\n\r\n',
    '\ufeff',
    '%00',
    "'; drop table tasks; --",
    '../../etc/passwd',
    '{{7*7}}<%= 7*7 %>',
  ),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), minLength: 1 }),
  fc.string({
    unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    minLength: 1,
  }),
)

/** Ids that are not what the field wants: another brand, bad characters, odd lengths. */
export const badId = fc.oneof(
  fc.tuple(fc.constantFrom(...BRANDS), ULID).map(([p, u]) => `${p}_${u}`),
  fc.constantFrom(
    '',
    ' ',
    'null',
    'undefined',
    '0',
    '-1',
    'org_',
    'task_01JD3Q2R4S5T6V7W8X9YZABCDEF',
    'task_01jd3q2r4s5t6v7w8x9yzabcde',
    'TASK_01JD3Q2R4S5T6V7W8X9YZABCDE',
    'task_01JD3Q2R4S5T6V7W8X9YZABCDI',
    'task-01JD3Q2R4S5T6V7W8X9YZABCDE',
    'ENG-0',
    'ENG-99999999999999999999',
    `x${'a'.repeat(5000)}`,
  ),
  hostileString,
)

const forgedCursor = fc.oneof(
  fc.base64String({ maxLength: 120 }),
  fc.string({ maxLength: 60 }),
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
  fc.constantFrom('', '=', 'eyJ9', 'eyJzIjoiIn0', `e${'A'.repeat(2047)}`, 'x'.repeat(2049)),
)

const badLimit = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '201',
    '1e3',
    '1e309',
    '1.5',
    'NaN',
    'Infinity',
    ' 5',
    '0x10',
    '',
    '99999999999999999999999',
    '5,6',
    'true',
  ),
  fc.integer().map(String),
)

const contentTypes = fc.constantFrom(
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/jsonx',
  'json',
  '',
  'application/merge-patch+json',
  ';;;',
)

const odd = fc.oneof(
  fc.constantFrom(null, true, 0, -0, 1e308, -1e308, 2 ** 53 + 1, '', [], {}, [null], { '': 1 }, '__proto__'),
  fc.jsonValue({ maxDepth: 3 }),
)

function nested(depth: number, open: string, close: string, leaf: string): string {
  return open.repeat(depth) + leaf + close.repeat(depth)
}

/** Every way the fuzzer breaks a request; `cursors` holds real cursors seen so far (to replay elsewhere). */
export function mutations(cursors: string[]): fc.Arbitrary<Mutation> {
  const pick = <T>(items: T[]) => fc.integer({ min: 0, max: 1_000_000 }).map((i) => items[i % items.length])
  const m = (name: string, apply: (d: Draft) => void): Mutation => ({ name, apply })
  return fc.oneof(
    fc.tuple(fc.string({ minLength: 1, maxLength: 20 }), odd).map(([key, value]) =>
      m('unknown body field', (d) => {
        if (isObject(d.body)) (d.body as Record<string, unknown>)[key] = value
        else d.body = { [key]: value }
      }),
    ),
    fc.tuple(fc.nat(), odd).map(([i, value]) =>
      m('wrong type in body', (d) => {
        const keys = isObject(d.body) ? Object.keys(d.body as object) : []
        if (keys.length === 0) d.body = value
        else (d.body as Record<string, unknown>)[keys[i % keys.length]!] = value
      }),
    ),
    odd.map((value) =>
      m('wrong body type', (d) => {
        d.body = value
      }),
    ),
    fc.tuple(fc.nat(), hostileString).map(([i, s]) =>
      m('control characters in body', (d) => {
        const keys = isObject(d.body)
          ? Object.keys(d.body as object).filter((k) => typeof (d.body as any)[k] === 'string')
          : []
        if (keys.length > 0) (d.body as Record<string, unknown>)[keys[i % keys.length]!] = s
        else if (isObject(d.body)) (d.body as Record<string, unknown>)[s] = s
      }),
    ),
    fc.tuple(fc.nat(), hostileString).map(([i, s]) =>
      m('control characters in query', (d) => {
        if (d.query.length > 0) d.query[i % d.query.length]![1] = s
        else d.query.push(['q', s])
      }),
    ),
    fc.tuple(fc.nat(), badId, fc.boolean()).map(([i, id, raw]) =>
      m(raw ? 'malformed id in path (raw)' : 'malformed id in path', (d) => {
        const names = Object.keys(d.params)
        if (names.length === 0) return
        const name = names[i % names.length]!
        d.params[name] = id
        if (raw) d.rawParams.add(name)
      }),
    ),
    fc
      .tuple(fc.nat(), fc.constantFrom('%', '%E0%A4%A', '%zz', '%C0%80', '..', '.', '%2F', '%00', '%FF%FE'))
      .map(([i, s]) =>
        m('bad escape in path', (d) => {
          const names = Object.keys(d.params)
          if (names.length === 0) return
          const name = names[i % names.length]!
          d.params[name] = s
          d.rawParams.add(name)
        }),
      ),
    fc.tuple(fc.nat(), badId).map(([i, id]) =>
      m('wrong id in body or query', (d) => {
        const idKeys = (o: Record<string, unknown>) => Object.keys(o).filter((k) => /Ids?$/.test(k))
        if (isObject(d.body) && idKeys(d.body as Record<string, unknown>).length > 0) {
          const keys = idKeys(d.body as Record<string, unknown>)
          ;(d.body as Record<string, unknown>)[keys[i % keys.length]!] = id
        } else d.query.push(['teamId', id])
      }),
    ),
    fc.oneof(forgedCursor, pick(cursors.length > 0 ? cursors : ['x'])).map((c) =>
      m('forged or foreign cursor', (d) => {
        d.query = d.query.filter(([k]) => k !== 'cursor')
        d.query.push(['cursor', String(c ?? '')])
      }),
    ),
    badLimit.map((limit) =>
      m('out-of-range limit', (d) => {
        d.query = d.query.filter(([k]) => k !== 'limit')
        d.query.push(['limit', limit])
      }),
    ),
    fc.tuple(fc.nat(), fc.string({ maxLength: 10 })).map(([i, v]) =>
      m('duplicate query parameter', (d) => {
        const first = d.query[i % Math.max(1, d.query.length)]
        d.query.push([first?.[0] ?? 'limit', first && i % 2 ? first[1] : v])
        if (!first) d.query.push(['limit', v])
      }),
    ),
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 12 }))
      .map(([k, v]) => m('unknown query parameter', (d) => void d.query.push([k, v]))),
    contentTypes.map((type) =>
      m('wrong content type', (d) => {
        d.headers['content-type'] = type
        if (d.body === undefined) d.body = {}
      }),
    ),
    fc
      .constantFrom(
        '{',
        '{"a":',
        '[1,]',
        'nul',
        '"\\ud800"',
        '{"a":1}{"b":2}',
        '\u0000',
        ' ',
        '{"__proto__":{"x":1}}',
        '{"constructor":{"prototype":{}}}',
      )
      .map((text) =>
        m('broken JSON', (d) => {
          d.rawBody = text
          d.headers['content-type'] = 'application/json'
        }),
      ),
    fc.integer({ min: 1_000, max: 200_000 }).map((depth) =>
      m('deeply nested body', (d) => {
        d.rawBody = depth % 2 ? nested(depth, '[', ']', '1') : nested(depth, '{"a":', '}', '1')
        d.headers['content-type'] = 'application/json'
      }),
    ),
    fc.tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.nat(), fc.boolean()).map(([depth, i, arrays]) =>
      m('deeply nested field', (d) => {
        const body = isObject(d.body) ? { ...(d.body as Record<string, unknown>) } : {}
        const keys = Object.keys(body)
        const key = keys.length > 0 ? keys[i % keys.length]! : 'title'
        delete body[key]
        const text = JSON.stringify(body)
        const field = arrays ? nested(depth, '[', ']', '"x"') : nested(depth, '{"a":', '}', '"x"')
        d.rawBody = `${text.slice(0, -1)}${text === '{}' ? '' : ','}${JSON.stringify(key)}:${field}}`
        d.headers['content-type'] = 'application/json'
      }),
    ),
    fc.constantFrom(1_048_577, 2_000_000).map((size) =>
      m('body over the limit', (d) => {
        d.rawBody = JSON.stringify({ title: 'x'.repeat(size) })
        d.headers['content-type'] = 'application/json'
      }),
    ),
    fc.nat().map((i) =>
      m('huge field', (d) => {
        const huge =
          i % 3 === 0
            ? 'é'.repeat(400_000)
            : i % 3 === 1
              ? Array.from({ length: 50_000 }, (_, n) => n)
              : 'x'.repeat(1_000_000)
        const keys = isObject(d.body) ? Object.keys(d.body as object) : []
        if (keys.length > 0) (d.body as Record<string, unknown>)[keys[i % keys.length]!] = huge
        else d.body = { title: huge }
      }),
    ),
    fc
      .tuple(
        fc.constantFrom('if-match', 'if-none-match', 'idempotency-key', 'accept'),
        fc.oneof(
          fc.constantFrom(
            '*',
            'W/"x"',
            '"',
            '""',
            ',,,',
            'x'.repeat(256),
            '',
            'text/html',
            'application/json;q=0',
            '*/*;q=abc',
          ),
          fc.string({
            maxLength: 30,
            unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
          }),
        ),
      )
      .map(([name, value]) =>
        m(`odd ${name} header`, (d) => {
          d.headers[name] = value
        }),
      ),
  )
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
