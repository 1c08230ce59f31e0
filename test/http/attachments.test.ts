import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const LIMIT = 64 * 1024
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Every file under a directory, recursively. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      return statSync(path).isDirectory() ? filesUnder(path) : [path]
    })
  } catch {
    return []
  }
}

describeEachDatabase('attachments', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let blobDirectory: string
  beforeAll(async () => {
    blobDirectory = join(mkdtempSync(join(tmpdir(), 'wg-blobs-')), 'blobs')
    server = await startTestServer(db, { blobDirectory, config: { maxUploadBytes: LIMIT } })
  })
  afterAll(() => server.drop())

  const base = (ws: TestWorkspace) => `/v1/orgs/${ws.orgId}/attachments`

  function upload(
    ws: TestWorkspace,
    token: string,
    record: { type: string; id: string },
    bytes: Uint8Array,
    fileName?: string,
  ) {
    const query = new URLSearchParams({
      recordType: record.type,
      recordId: record.id,
      ...(fileName !== undefined ? { fileName } : {}),
    })
    return server.request('POST', `${base(ws)}?${query}`, {
      token,
      rawBody: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    })
  }

  /** A download read as bytes (the test client reads text). */
  async function download(ws: TestWorkspace, token: string, id: string) {
    const res = await fetch(`${server.url}${base(ws)}/${id}/content`, {
      headers: { authorization: `Bearer ${token}` },
    })
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) }
  }

  async function newTask(ws: TestWorkspace) {
    const task = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'With files' })
    return { type: 'task', id: task.body.id as string }
  }

  it('uploads, lists, reads and downloads a file byte for byte, with its sha256 and sniffed type', async () => {
    const ws = await newWorkspace(server)
    const task = await newTask(ws)
    const created = await upload(ws, ws.owner.token, task, PNG, 'pixel.png')
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      recordType: 'task',
      recordId: task.id,
      fileName: 'pixel.png',
      contentType: 'image/png',
      size: PNG.byteLength,
      sha256: sha256(PNG),
    })
    expect(created.body.id).toMatch(/^att_/)
    expect(created.headers.get('location')).toBe(`${base(ws)}/${created.body.id}`)
    expect((await ws.api.get(`${base(ws)}/${created.body.id}`)).body).toEqual(created.body)
    const listed = await ws.api.get(`${base(ws)}?recordType=task&recordId=${task.id}`)
    expect(listed.body).toEqual({ data: [created.body], nextCursor: null })

    const file = await download(ws, ws.owner.token, created.body.id)
    expect(file.status).toBe(200)
    expect(file.bytes.equals(PNG)).toBe(true)
    expect(sha256(file.bytes)).toBe(created.body.sha256)
    expect(file.headers.get('content-type')).toBe('image/png')
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="pixel.png"')
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
    expect(file.headers.get('content-security-policy')).toContain('sandbox')

    const events = await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)
    expect(events.body.data.map((e: any) => e.kind)).toContain('attachment.created')
  })

  it('streams a file larger than the JSON body limit, and attaches to comments, projects and documents', async () => {
    const ws = await newWorkspace(server)
    const task = await newTask(ws)
    // Not UTF-8, not a known format: stored and served as application/octet-stream.
    const bytes = Buffer.alloc(LIMIT, 0xff)
    bytes[0] = 0
    const created = await upload(ws, ws.owner.token, task, bytes, 'blob.bin')
    expect(created.body).toMatchObject({ size: LIMIT, contentType: 'application/octet-stream' })
    expect((await download(ws, ws.owner.token, created.body.id)).bytes.equals(bytes)).toBe(true)

    const org = `/v1/orgs/${ws.orgId}`
    const comment = await ws.api.post(`${org}/tasks/${task.id}/comments`, { body: 'See attached' })
    const project = await ws.api.post(`${org}/projects`, { name: 'Files', teamIds: [ws.teamId] })
    const doc = await ws.api.post(`${org}/documents`, {
      holderType: 'project',
      holderId: project.body.id,
      title: 'Spec',
    })
    for (const record of [
      { type: 'comment', id: comment.body.id },
      { type: 'project', id: project.body.id },
      { type: 'document', id: doc.body.id },
    ]) {
      const res = await upload(ws, ws.owner.token, record, Buffer.from('notes\n'), 'notes.txt')
      expect(res.status, record.type).toBe(201)
      expect(res.body.contentType).toBe('text/plain; charset=utf-8')
    }
    // A record that does not exist, or of another type than named, is a 404.
    const wrong = await upload(ws, ws.owner.token, { type: 'project', id: task.id }, Buffer.from('x'))
    expect(wrong).toMatchObject({ status: 404, body: { code: 'not_found' } })
  })

  it('refuses a file over the limit with 413 while streaming, and keeps nothing', async () => {
    const ws = await newWorkspace(server)
    const task = await newTask(ws)
    const before = filesUnder(blobDirectory).length
    // Declared length over the limit: refused before reading.
    const declared = await upload(ws, ws.owner.token, task, Buffer.alloc(LIMIT + 1, 0x61), 'big.txt')
    expect(declared).toMatchObject({
      status: 413,
      body: { code: 'payload_too_large', maxBytes: LIMIT },
    })
    // No declared length (chunked): the limit is found while streaming.
    const chunks = (async function* () {
      for (let i = 0; i < 4; i++) yield Buffer.alloc(LIMIT / 2, 0x61)
    })()
    const streamed = await fetch(`${server.url}${base(ws)}?recordType=task&recordId=${task.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.owner.token}`, 'content-type': 'application/octet-stream' },
      body: chunks as never,
      duplex: 'half',
    } as RequestInit)
    expect(streamed.status).toBe(413)
    expect(((await streamed.json()) as { code: string }).code).toBe('payload_too_large')
    // Undeclared, and all there at once (in-process): refused before the file is even open.
    const atOnce = await server.fetch(
      new Request(`${server.url}${base(ws)}?recordType=task&recordId=${task.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ws.owner.token}`, 'content-type': 'application/octet-stream' },
        body: Buffer.alloc(LIMIT + 1, 0x61),
        duplex: 'half',
      } as RequestInit),
    )
    expect(atOnce.status).toBe(413)
    expect((await ws.api.get(`${base(ws)}?recordType=task&recordId=${task.id}`)).body.data).toEqual([])
    expect(filesUnder(blobDirectory).length, filesUnder(blobDirectory).join(' ')).toBe(before)
  })

  it('makes a hostile file name safe, and the download header with it', async () => {
    const ws = await newWorkspace(server)
    const task = await newTask(ws)
    const cases: Array<[string, string]> = [
      ['../../etc/passwd', 'passwd'],
      ['..\\..\\windows\\win.ini', 'win.ini'],
      ['evil\r\nSet-Cookie: x=1\u0007\u001b\u0085.txt', 'evilSet-Cookie_ x=1.txt'],
      ['say "hi".txt', 'say _hi_.txt'],
      ['invoice\u202Egnp.exe', 'invoicegnp.exe'],
      ['..', 'file'],
      [`${'a'.repeat(500)}.pdf`, `${'a'.repeat(196)}.pdf`],
    ]
    for (const [given, expected] of cases) {
      const res = await upload(ws, ws.owner.token, task, Buffer.from('x'), given)
      expect(res.body.fileName, `${JSON.stringify(given)}: ${JSON.stringify(res.body)}`).toBe(expected)
      const file = await download(ws, ws.owner.token, res.body.id)
      const header = file.headers.get('content-disposition')!
      expect(header).toMatch(
        /^attachment; filename="[\w. -]+"(; filename\*=UTF-8''[A-Za-z0-9%._~!$&+,;=@-]+)?$/,
      )
    }
    // NUL is refused in every text of the API.
    const nul = await upload(ws, ws.owner.token, task, Buffer.from('x'), 'a\u0000b')
    expect(nul).toMatchObject({ status: 400, body: { code: 'validation_failed' } })
    const unicode = await upload(ws, ws.owner.token, task, Buffer.from('x'), 'résumé "final".txt')
    const header = (await download(ws, ws.owner.token, unicode.body.id)).headers.get('content-disposition')
    expect(header).toBe(
      `attachment; filename="r_sum_ _final_.txt"; filename*=UTF-8''${encodeURIComponent('résumé _final_.txt')}`,
    )
  })

  it('never serves HTML as HTML: plain text, as an attachment, with nosniff', async () => {
    const ws = await newWorkspace(server)
    const task = await newTask(ws)
    const html = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>')
    for (const name of ['page.html', 'image.svg']) {
      const res = await upload(ws, ws.owner.token, task, html, name)
      expect(res.body.contentType).toBe('text/plain; charset=utf-8')
      const file = await download(ws, ws.owner.token, res.body.id)
      expect(file.headers.get('content-type')).not.toMatch(/html|svg|xml/)
      expect(file.headers.get('content-disposition')).toMatch(/^attachment;/)
      expect(file.headers.get('x-content-type-options')).toBe('nosniff')
      expect(file.bytes.equals(html)).toBe(true)
    }
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script/></svg>')
    expect((await upload(ws, ws.owner.token, task, svg, 'x.svg')).body.contentType).toBe(
      'text/plain; charset=utf-8',
    )
  })

  it('hides the files of a record from a reader who cannot view it: 404 on get, list and download', async () => {
    const ws = await newWorkspace(server)
    const org = `/v1/orgs/${ws.orgId}`
    const other = await ws.api.post(`${org}/teams`, { name: 'Design', key: 'DES' })
    const hiddenTask = await ws.api.post(`${org}/tasks`, { teamId: other.body.id, title: 'Hidden' })
    const hidden = { type: 'task', id: hiddenTask.body.id as string }
    const file = await upload(ws, ws.owner.token, hidden, Buffer.from('secret'), 'secret.txt')
    const guest = await teamGuest(ws, 'contribute')
    const gets = [
      await guest.api.get(`${base(ws)}/${file.body.id}`),
      await guest.api.get(`${base(ws)}?recordType=task&recordId=${hidden.id}`),
      await guest.api.get(`${base(ws)}/${file.body.id}/content`),
      await guest.api.delete(`${base(ws)}/${file.body.id}`),
    ]
    for (const res of gets) expect(res).toMatchObject({ status: 404, body: { code: 'not_found' } })
    expect((await upload(ws, guest.token, hidden, Buffer.from('x'))).status).toBe(404)
    // Its events are filed under the hidden team: the guest's stream does not carry them.
    const stream = await guest.api.get(`${org}/stream`)
    expect(stream.body.data.map((e: any) => e.kind)).not.toContain('attachment.created')
    // Another org's attachment id is as missing.
    const elsewhere = await newWorkspace(server)
    expect((await elsewhere.api.get(`/v1/orgs/${elsewhere.orgId}/attachments/${file.body.id}`)).status).toBe(
      404,
    )
  })

  it('needs contribute to upload; deleting another contributor’s file needs manage', async () => {
    const ws = await newWorkspace(server)
    const task = await newTask(ws)
    const viewer = await teamGuest(ws, 'view')
    const refused = await upload(ws, viewer.token, task, Buffer.from('x'), 'x.txt')
    expect(refused).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'contribute' },
    })
    // A viewer still reads what others attached.
    const mine = await upload(ws, ws.owner.token, task, Buffer.from('owner'), 'owner.txt')
    expect((await viewer.api.get(`${base(ws)}/${mine.body.id}`)).status).toBe(200)
    expect((await download(ws, viewer.token, mine.body.id)).status).toBe(200)

    const alice = await teamGuest(ws, 'contribute')
    const bob = await teamGuest(ws, 'contribute')
    const hers = await upload(ws, alice.token, task, Buffer.from('alice'), 'alice.txt')
    expect(hers.body.uploaderId).toBe(alice.memberId)
    expect(await bob.api.delete(`${base(ws)}/${hers.body.id}`)).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'manage' },
    })
    expect(await viewer.api.delete(`${base(ws)}/${hers.body.id}`)).toMatchObject({
      status: 403,
      body: { code: 'capability_required', capability: 'contribute' },
    })
    expect((await ws.api.get(`${base(ws)}/${hers.body.id}`)).status).toBe(200)
    // Her own file she deletes; the owner (manage) deletes anyone's.
    const before = filesUnder(blobDirectory).length
    expect((await alice.api.delete(`${base(ws)}/${hers.body.id}`)).status).toBe(204)
    expect(filesUnder(blobDirectory).length).toBe(before - 1)
    const bobs = await upload(ws, bob.token, task, Buffer.from('bob'), 'bob.txt')
    expect((await ws.api.delete(`${base(ws)}/${bobs.body.id}`)).status).toBe(204)
    expect((await ws.api.get(`${base(ws)}/${hers.body.id}`)).status).toBe(404)
    expect((await download(ws, ws.owner.token, bobs.body.id)).status).toBe(404)
    const events = await ws.api.get(`/v1/orgs/${ws.orgId}/stream`)
    expect(events.body.data.filter((e: any) => e.kind === 'attachment.deleted')).toHaveLength(2)
  })

  it('hides the files of a deleted record at once; the prune sweep removes their rows and bytes', async () => {
    const ws = await newWorkspace(server)
    const org = `/v1/orgs/${ws.orgId}`
    const task = await newTask(ws)
    const project = await ws.api.post(`${org}/projects`, { name: 'Gone', teamIds: [ws.teamId] })
    const doc = await ws.api.post(`${org}/documents`, {
      holderType: 'team',
      holderId: ws.teamId,
      title: 'Gone',
    })
    const comment = await ws.api.post(`${org}/tasks/${task.id}/comments`, { body: 'Gone' })
    const kept = await upload(ws, ws.owner.token, task, Buffer.from('kept'), 'kept.txt')
    const doomed = [
      await upload(ws, ws.owner.token, { type: 'project', id: project.body.id }, Buffer.from('p'), 'p.txt'),
      await upload(ws, ws.owner.token, { type: 'document', id: doc.body.id }, Buffer.from('d'), 'd.txt'),
      await upload(ws, ws.owner.token, { type: 'comment', id: comment.body.id }, Buffer.from('c'), 'c.txt'),
    ]
    expect((await ws.api.delete(`${org}/projects/${project.body.id}`)).status).toBe(204)
    expect((await ws.api.delete(`${org}/documents/${doc.body.id}`)).status).toBe(204)
    expect((await ws.api.delete(`${org}/comments/${comment.body.id}`)).status).toBe(204)
    for (const res of doomed) {
      expect((await ws.api.get(`${base(ws)}/${res.body.id}`)).status).toBe(404)
      expect((await download(ws, ws.owner.token, res.body.id)).status).toBe(404)
    }
    const before = filesUnder(blobDirectory).length
    const pruned = await server.engine.prune()
    expect(pruned.attachments).toBeGreaterThanOrEqual(3)
    expect(filesUnder(blobDirectory).length).toBeLessThanOrEqual(before - 3)
    const rows = await server.storage.db
      .selectFrom('attachments')
      .select('id')
      .where('orgId', '=', ws.orgId)
      .execute()
    expect(rows.map((r) => r.id)).toEqual([kept.body.id])
    expect((await download(ws, ws.owner.token, kept.body.id)).bytes.toString()).toBe('kept')
  })

  it('pages through a record’s files in upload order', async () => {
    const ws = await newWorkspace(server)
    const task = await newTask(ws)
    const other = await newTask(ws)
    const ids: string[] = []
    for (let i = 0; i < 5; i++)
      ids.push((await upload(ws, ws.owner.token, task, Buffer.from(`file ${i}`), `f${i}.txt`)).body.id)
    await upload(ws, ws.owner.token, other, Buffer.from('elsewhere'), 'other.txt')
    const list = `${base(ws)}?recordType=task&recordId=${task.id}&limit=2`
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(cursor ? `${list}&cursor=${encodeURIComponent(cursor)}` : list)
      expect(page.status).toBe(200)
      expect(page.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...page.body.data.map((a: any) => a.id))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual(ids)
    // A cursor belongs to its record's list.
    const first = await ws.api.get(list)
    const crossed = await ws.api.get(
      `${base(ws)}?recordType=task&recordId=${other.id}&cursor=${encodeURIComponent(first.body.nextCursor)}`,
    )
    expect(crossed).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } })
  })
})
