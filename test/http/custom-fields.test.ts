import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/** Walks every page of a list with the given page size and answers all items in order. */
async function walk(api: TestWorkspace['api'], path: string, limit: number): Promise<any[]> {
  const items: any[] = []
  let cursor: string | null = null
  const sep = path.includes('?') ? '&' : '?'
  do {
    const res: any = await api.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    items.push(...res.body.data)
    cursor = res.body.nextCursor
  } while (cursor)
  return items
}

describeEachDatabase('custom fields', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('defines, lists by page, edits, archives and restores fields and their options, emitting events', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/custom-fields`
    const created = await ws.api.post(base, {
      name: 'Impact',
      type: 'select',
      teamIds: [ws.teamId],
      options: [{ name: 'Low', color: '#4caf50' }, { name: 'High' }],
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^cf_/),
      name: 'Impact',
      description: null,
      type: 'select',
      recordKinds: ['task'],
      teamIds: [ws.teamId],
      options: [
        { id: expect.stringMatching(/^cfo_/), name: 'Low', color: '#4caf50', disabled: false },
        { name: 'High', color: null, disabled: false },
      ],
      archivedAt: null,
    })
    const field = created.body
    for (const name of ['Cost', 'Area', 'Budget']) {
      expect((await ws.api.post(base, { name, type: 'number' })).status).toBe(201)
    }
    const taken = await ws.api.post(base, { name: 'impact', type: 'text' })
    expect(taken).toMatchObject({ status: 409, body: { code: 'custom_field_name_taken' } })
    const optionsOnText = await ws.api.post(base, { name: 'Notes', type: 'text', options: [{ name: 'x' }] })
    expect(optionsOnText).toMatchObject({ status: 422, body: { code: 'rule_violated' } })
    const badTeam = await ws.api.post(base, {
      name: 'Notes',
      type: 'text',
      teamIds: [`team_${'0'.repeat(26)}`],
    })
    expect(badTeam).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })

    // By name, every field once whatever the page size.
    for (const limit of [1, 2, 10]) {
      expect((await walk(ws.api, base, limit)).map((f) => f.name)).toEqual([
        'Area',
        'Budget',
        'Cost',
        'Impact',
      ])
    }
    const other = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Ops', key: 'OPS' })).body
    const forOps = await walk(ws.api, `${base}?teamId=${other.id}`, 2)
    expect(forOps.map((f) => f.name)).toEqual(['Area', 'Budget', 'Cost'])
    expect((await ws.api.get(`${base}?recordKind=project`)).body.data).toEqual([])

    const item = `${base}/${field.id}`
    expect((await ws.api.get(item)).body).toEqual(field)
    const renamed = await ws.api.patch(item, { name: 'Customer impact', description: 'How much it hurts.' })
    expect(renamed.body).toMatchObject({ name: 'Customer impact', description: 'How much it hurts.' })

    const critical = await ws.api.post(`${item}/options`, { name: 'Critical', color: '#f44336', position: 0 })
    expect(critical.status).toBe(201)
    expect(critical.body.options.map((o: any) => o.name)).toEqual(['Critical', 'Low', 'High'])
    const dupe = await ws.api.post(`${item}/options`, { name: 'low' })
    expect(dupe).toMatchObject({ status: 422, body: { code: 'rule_violated' } })
    const [crit, low, high] = critical.body.options
    const disabled = await ws.api.patch(`${item}/options/${crit.id}`, { disabled: true, name: 'Blocker' })
    expect(disabled.body.options[0]).toEqual({ ...crit, name: 'Blocker', disabled: true })
    const missingOption = await ws.api.patch(`${item}/options/cfo_${'0'.repeat(26)}`, { name: 'x' })
    expect(missingOption.status).toBe(404)
    const moved = await ws.api.post(`${item}/options/${crit.id}/move`, { afterId: high.id })
    expect(moved.body.options.map((o: any) => o.id)).toEqual([low.id, high.id, crit.id])
    const first = await ws.api.post(`${item}/options/${high.id}/move`, { beforeId: low.id })
    expect(first.body.options.map((o: any) => o.id)).toEqual([high.id, low.id, crit.id])
    const both = await ws.api.post(`${item}/options/${high.id}/move`, { beforeId: low.id, afterId: crit.id })
    expect(both).toMatchObject({ status: 400, body: { code: 'validation_failed' } })
    const numberField = forOps[0]
    const noOptions = await ws.api.post(`${base}/${numberField.id}/options`, { name: 'x' })
    expect(noOptions).toMatchObject({ status: 422, body: { code: 'rule_violated' } })

    const archived = await ws.api.post(`${item}/archive`)
    expect(archived.body.archivedAt).not.toBeNull()
    expect((await ws.api.patch(item, { name: 'x' })).body.code).toBe('archived')
    expect((await ws.api.get(base)).body.data.map((f: any) => f.name)).not.toContain('Customer impact')
    expect((await ws.api.get(`${base}?archived=only`)).body.data.map((f: any) => f.id)).toEqual([field.id])
    // Archiving frees the name; restoring needs it back.
    const squatter = await ws.api.post(base, { name: 'Customer impact', type: 'text' })
    expect((await ws.api.post(`${item}/restore`)).body.code).toBe('custom_field_name_taken')
    await ws.api.post(`${base}/${squatter.body.id}/archive`)
    expect((await ws.api.post(`${item}/restore`)).body.archivedAt).toBeNull()

    const kinds = (await ws.api.get(`/v1/orgs/${ws.orgId}/stream?limit=200`)).body.data
      .filter((e: any) => e.resourceId === field.id)
      .map((e: any) => e.kind)
    expect(kinds).toEqual([
      'custom_field.created',
      'custom_field.updated',
      'custom_field.updated',
      'custom_field.updated',
      'custom_field.updated',
      'custom_field.updated',
      'custom_field.archived',
      'custom_field.restored',
    ])
  })

  it('needs manage on the org to define fields; members read them', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}/custom-fields`
    const field = (await ws.api.post(base, { name: 'Cost', type: 'number' })).body
    const member = await ws.addMember('member')
    expect((await member.api.get(base)).body.data.map((f: any) => f.id)).toEqual([field.id])
    const refused = await member.api.post(base, { name: 'Other', type: 'text' })
    expect(refused).toMatchObject({ status: 403, body: { code: 'capability_required' } })
    expect((await member.api.patch(`${base}/${field.id}`, { name: 'x' })).status).toBe(403)
    expect((await member.api.post(`${base}/${field.id}/archive`)).status).toBe(403)
    const stranger = await newWorkspace(server)
    expect((await stranger.api.get(`${base}/${field.id}`)).status).toBe(404)
    expect((await ws.api.get(`${base}/cf_${'0'.repeat(26)}`)).status).toBe(404)
  })

  it('sets and clears values on tasks, through their own operation and task create/update, checking each type', async () => {
    const ws = await newWorkspace(server)
    const org = `/v1/orgs/${ws.orgId}`
    const def = async (body: object) => (await ws.api.post(`${org}/custom-fields`, body)).body
    const text = await def({ name: 'Notes', type: 'text' })
    const num = await def({ name: 'Cost', type: 'number' })
    const date = await def({ name: 'Launch', type: 'date' })
    const url = await def({ name: 'Spec', type: 'url' })
    const person = await def({ name: 'Reviewer', type: 'person' })
    const tags = await def({ name: 'Tags', type: 'multiSelect', options: [{ name: 'a' }, { name: 'b' }] })
    const projectOnly = await def({ name: 'Budget', type: 'number', recordKinds: ['project'] })
    const ops = (await ws.api.post(`${org}/teams`, { name: 'Ops', key: 'OPS' })).body
    const opsOnly = await def({ name: 'Pager', type: 'text', teamIds: [ops.id] })
    const reviewer = await ws.addMember('member')
    const [a, b] = tags.options.map((o: any) => o.id)

    const created = await ws.api.post(`${org}/tasks`, {
      teamId: ws.teamId,
      title: 'With fields',
      fields: { [text.id]: '  hello  ', [num.id]: 2.5, [tags.id]: [b, a], [url.id]: null },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.fields).toEqual({ [text.id]: 'hello', [num.id]: 2.5, [tags.id]: [a, b] })
    const task = created.body
    // `tasks.update` sets one field (a value) or clears it (null); fields left out keep their value.
    const setField = (fieldId: string, value: unknown) =>
      ws.api.patch(`${org}/tasks/${task.id}`, { fields: { [fieldId]: value } })

    const set = await setField(date.id, '2030-02-28')
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    expect(set.body.fields[date.id]).toBe('2030-02-28')
    expect((await setField(person.id, reviewer.memberId)).body.fields[person.id]).toBe(reviewer.memberId)
    expect((await setField(url.id, 'https://example.com/spec')).status).toBe(200)
    const updated = await ws.api.patch(`${org}/tasks/${task.id}`, {
      fields: { [text.id]: null, [num.id]: 3 },
    })
    expect(updated.body.fields).toEqual({
      [num.id]: 3,
      [tags.id]: [a, b],
      [date.id]: '2030-02-28',
      [person.id]: reviewer.memberId,
      [url.id]: 'https://example.com/spec',
    })
    expect((await ws.api.get(`${org}/tasks/${task.id}`)).body.fields).toEqual(updated.body.fields)
    const cleared = await setField(num.id, null)
    expect(cleared.status).toBe(200)
    expect(cleared.body.fields[num.id]).toBeUndefined()
    // Clearing again, or setting the value held, changes nothing.
    expect((await setField(num.id, null)).body.updatedAt).toBe(cleared.body.updatedAt)
    expect((await setField(date.id, '2030-02-28')).body.updatedAt).toBe(cleared.body.updatedAt)

    const refusals: Array<[string, unknown, number, string]> = [
      [num.id, 'three', 422, 'rule_violated'],
      [date.id, '2030-02-30', 422, 'rule_violated'],
      [url.id, 'javascript:alert(1)', 422, 'rule_violated'],
      [person.id, `mem_${'0'.repeat(26)}`, 422, 'rule_violated'],
      [tags.id, [`cfo_${'0'.repeat(26)}`], 422, 'rule_violated'],
      [text.id, 5, 422, 'rule_violated'],
      [projectOnly.id, 5, 422, 'field_not_applicable'],
      [opsOnly.id, 'x', 422, 'field_not_applicable'],
    ]
    for (const [fieldId, value, status, code] of refusals) {
      const res = await setField(fieldId, value)
      expect(res, `${fieldId} ${JSON.stringify(value)}`).toMatchObject({ status, body: { code } })
      expect(res.body.errors[0].pointer).toBe(`/body/fields/${fieldId}`)
    }
    const viaUpdate = await ws.api.patch(`${org}/tasks/${task.id}`, { fields: { [opsOnly.id]: 'x' } })
    expect(viaUpdate).toMatchObject({ status: 422, body: { code: 'field_not_applicable' } })
    expect(viaUpdate.body.errors[0].pointer).toBe(`/body/fields/${opsOnly.id}`)
    // A move to Ops makes its field usable.
    const moved = await ws.api.patch(`${org}/tasks/${task.id}`, {
      teamId: ops.id,
      fields: { [opsOnly.id]: 'x' },
    })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    expect(moved.body.fields[opsOnly.id]).toBe('x')
    expect(await setField(`cf_${'0'.repeat(26)}`, 'x')).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found' },
    })

    // A disabled option stays on the task but cannot be chosen again.
    await ws.api.patch(`${org}/custom-fields/${tags.id}/options/${a}`, { disabled: true })
    expect((await ws.api.get(`${org}/tasks/${task.id}`)).body.fields[tags.id]).toEqual([a, b])
    expect((await setField(tags.id, [a])).status).toBe(422)
    // An archived field's values are hidden and kept.
    await ws.api.post(`${org}/custom-fields/${date.id}/archive`)
    expect((await ws.api.get(`${org}/tasks/${task.id}`)).body.fields[date.id]).toBeUndefined()
    expect((await setField(date.id, '2030-03-01')).body.code).toBe('archived')
    await ws.api.post(`${org}/custom-fields/${date.id}/restore`)
    expect((await ws.api.get(`${org}/tasks/${task.id}`)).body.fields[date.id]).toBe('2030-02-28')

    const history = (await ws.api.get(`${org}/tasks/${task.id}/history?limit=200`)).body.data
    expect(history.filter((h: any) => h.field === `fields.${date.id}`)).toHaveLength(1)
    const events = (await ws.api.get(`${org}/stream?limit=200`)).body.data.filter(
      (e: any) => e.kind === 'task.updated' && e.resourceId === task.id,
    )
    expect(events[0].data.changes.fields).toEqual({
      before: { [text.id]: 'hello', [num.id]: 2.5, [tags.id]: [a, b] },
      after: { [text.id]: 'hello', [num.id]: 2.5, [tags.id]: [a, b], [date.id]: '2030-02-28' },
    })
  }, 90_000)

  it('sets and clears values on projects of the field’s teams with projects.update, shown in the project’s fields', async () => {
    const ws = await newWorkspace(server)
    const org = `/v1/orgs/${ws.orgId}`
    const def = async (body: object) => (await ws.api.post(`${org}/custom-fields`, body)).body
    const budget = await def({
      name: 'Budget',
      type: 'number',
      recordKinds: ['project'],
      teamIds: [ws.teamId],
    })
    const taskOnly = await def({ name: 'Cost', type: 'number' })
    const ops = (await ws.api.post(`${org}/teams`, { name: 'Ops', key: 'OPS' })).body
    const project = (await ws.api.post(`${org}/projects`, { name: 'P', teamIds: [ws.teamId] })).body
    expect(project.fields).toEqual({})
    const opsProject = (await ws.api.post(`${org}/projects`, { name: 'Q', teamIds: [ops.id] })).body
    // Set and clear through `projects.update`'s `fields`.
    const setField = (api: any, p: any, f: any, value: unknown) =>
      api.patch(`${org}/projects/${p.id}`, { fields: { [f.id]: value } })
    const set = await setField(ws.api, project, budget, 1200)
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    expect(set.body.fields).toEqual({ [budget.id]: 1200 })
    expect((await ws.api.get(`${org}/projects/${project.id}`)).body.fields).toEqual({ [budget.id]: 1200 })
    const listed = (await ws.api.get(`${org}/projects`)).body.data.find((p: any) => p.id === project.id)
    expect(listed.fields).toEqual({ [budget.id]: 1200 })
    expect((await setField(ws.api, project, taskOnly, 1)).body.code).toBe('field_not_applicable')
    expect((await setField(ws.api, opsProject, budget, 1)).body.code).toBe('field_not_applicable')
    expect((await setField(ws.api, project, budget, 'x')).body.code).toBe('rule_violated')
    // Spanning the field's team makes it apply.
    await ws.api.put(`${org}/projects/${opsProject.id}/teams/${ws.teamId}`)
    expect((await setField(ws.api, opsProject, budget, 5)).body.fields[budget.id]).toBe(5)
    const cleared = await setField(ws.api, project, budget, null)
    expect(cleared.body.fields).toEqual({})
    const history = (await ws.api.get(`${org}/projects/${project.id}/history?limit=50`)).body.data
    expect(history.filter((h: any) => h.field === `fields.${budget.id}`)).toHaveLength(2)
    const viewer = await teamGuest(ws, 'view')
    expect((await setField(viewer.api, project, budget, 1)).body.code).toBe('capability_required')
    const stranger = await newWorkspace(server)
    expect(
      (
        await stranger.api.patch(`/v1/orgs/${stranger.orgId}/projects/${project.id}`, {
          fields: { [budget.id]: 1 },
        })
      ).status,
    ).toBe(404)
    // Deleting the project deletes its values.
    expect((await ws.api.delete(`${org}/projects/${project.id}`)).status).toBe(204)
  }, 90_000)

  it('needs contribute on the task to set a value; a task the caller cannot view is a 404', async () => {
    const ws = await newWorkspace(server)
    const org = `/v1/orgs/${ws.orgId}`
    const field = (await ws.api.post(`${org}/custom-fields`, { name: 'Notes', type: 'text' })).body
    const task = (await ws.api.post(`${org}/tasks`, { teamId: ws.teamId, title: 'T' })).body
    const ops = (await ws.api.post(`${org}/teams`, { name: 'Ops', key: 'OPS' })).body
    const hidden = (await ws.api.post(`${org}/tasks`, { teamId: ops.id, title: 'H' })).body
    const viewer = await teamGuest(ws, 'view')
    const path = (t: any) => `${org}/tasks/${t.id}`
    const set = (value: unknown) => ({ fields: { [field.id]: value } })
    expect((await viewer.api.patch(path(task), set('x'))).body.code).toBe('capability_required')
    expect((await ws.api.get(path(task))).body.fields).toEqual({})
    expect((await viewer.api.patch(path(hidden), set('x'))).status).toBe(404)
    const contributor = await teamGuest(ws, 'contribute')
    expect((await contributor.api.patch(path(task), set('x'))).status).toBe(200)
    expect((await contributor.api.patch(path(hidden), set(null))).status).toBe(404)
    // Filtering on a field keeps the permission predicate: the hidden task never shows.
    await ws.api.patch(path(hidden), set('x'))
    const seen = await contributor.api.get(`${org}/tasks?fieldId=${field.id}&fieldValue=x`)
    expect(seen.body.data.map((t: any) => t.id)).toEqual([task.id])
    const all = await ws.api.get(`${org}/tasks?fieldId=${field.id}&fieldValue=x`)
    expect(all.body.data).toHaveLength(2)
  })

  it('filters and sorts tasks by a field, paging through ties and missing values on either direction', async () => {
    const ws = await newWorkspace(server)
    const org = `/v1/orgs/${ws.orgId}`
    const num = (await ws.api.post(`${org}/custom-fields`, { name: 'Cost', type: 'number' })).body
    const text = (await ws.api.post(`${org}/custom-fields`, { name: 'Code', type: 'text' })).body
    const sel = (
      await ws.api.post(`${org}/custom-fields`, {
        name: 'Size',
        type: 'select',
        options: [{ name: 'S' }, { name: 'M' }, { name: 'L' }],
      })
    ).body
    const tags = (
      await ws.api.post(`${org}/custom-fields`, {
        name: 'Tags',
        type: 'multiSelect',
        options: [{ name: 'x' }, { name: 'y' }],
      })
    ).body
    const [s, m, l] = sel.options.map((o: any) => o.id)
    const [x, y] = tags.options.map((o: any) => o.id)
    // cost, code, size, tags; undefined: no value
    const rows: Array<[number | undefined, string | undefined, string | undefined, string[] | undefined]> = [
      [3, 'b', l, [x]],
      [1, undefined, s, undefined],
      [undefined, 'a', undefined, [x, y]],
      [3, 'b', m, [y]],
      [-2.5, 'c', s, undefined],
      [undefined, undefined, l, undefined],
      [1, 'a', undefined, [x]],
    ]
    const tasks: any[] = []
    for (const [i, [cost, code, size, tagged]] of rows.entries()) {
      const fields: Record<string, unknown> = {}
      if (cost !== undefined) fields[num.id] = cost
      if (code !== undefined) fields[text.id] = code
      if (size !== undefined) fields[sel.id] = size
      if (tagged !== undefined) fields[tags.id] = tagged
      const res = await ws.api.post(`${org}/tasks`, { teamId: ws.teamId, title: `T${i}`, fields })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      tasks.push(res.body)
    }
    const byId = (ids: string[]) => ids.map((id) => tasks.findIndex((t) => t.id === id))
    // The expected order: the key, missing last in both directions, ties by id in the direction.
    const expected = (key: (i: number) => number | string | undefined, desc: boolean) =>
      rows
        .map((_, i) => i)
        .sort((i, j) => {
          const a = key(i)
          const b = key(j)
          if (a === undefined || b === undefined) {
            if (a !== b) return a === undefined ? 1 : -1
          } else if (a !== b) {
            return (a < b ? -1 : 1) * (desc ? -1 : 1)
          }
          return (tasks[i].id < tasks[j].id ? -1 : 1) * (desc ? -1 : 1)
        })
    const rank = (o: string | undefined) => (o === undefined ? undefined : [s, m, l].indexOf(o))
    const cases: Array<[string, (i: number) => number | string | undefined]> = [
      [num.id, (i) => rows[i]![0]],
      [text.id, (i) => rows[i]![1]],
      [sel.id, (i) => rank(rows[i]![2])],
    ]
    for (const [fieldId, key] of cases) {
      for (const desc of [false, true]) {
        for (const limit of [1, 3, 50]) {
          const all = await walk(ws.api, `${org}/tasks?fieldSort=${desc ? '-' : ''}${fieldId}`, limit)
          expect(byId(all.map((t) => t.id)), `${fieldId} desc=${desc} limit=${limit}`).toEqual(
            expected(key, desc),
          )
        }
      }
    }
    // Filters: equality, none, any, multi-select membership; combined with a sort.
    const ids = async (q: string) =>
      byId((await walk(ws.api, `${org}/tasks?${q}`, 2)).map((t) => t.id)).sort()
    expect(await ids(`fieldId=${num.id}&fieldValue=3`)).toEqual([0, 3])
    expect(await ids(`fieldId=${num.id}&fieldValue=-2.5`)).toEqual([4])
    expect(await ids(`fieldId=${num.id}&fieldValue=none`)).toEqual([2, 5])
    expect(await ids(`fieldId=${num.id}`)).toEqual([0, 1, 3, 4, 6])
    expect(await ids(`fieldId=${text.id}&fieldValue=a`)).toEqual([2, 6])
    expect(await ids(`fieldId=${sel.id}&fieldValue=${s}`)).toEqual([1, 4])
    expect(await ids(`fieldId=${tags.id}&fieldValue=${x}`)).toEqual([0, 2, 6])
    expect(await ids(`fieldId=${tags.id}&fieldValue=${y}&fieldSort=${num.id}`)).toEqual([2, 3])
    const sorted = await walk(
      ws.api,
      `${org}/tasks?fieldId=${sel.id}&fieldValue=${l}&fieldSort=-${num.id}`,
      1,
    )
    expect(byId(sorted.map((t) => t.id))).toEqual([0, 5])

    const bad = async (q: string, status: number, code: string) =>
      expect(await ws.api.get(`${org}/tasks?${q}`), q).toMatchObject({ status, body: { code } })
    await bad(`fieldSort=${tags.id}`, 422, 'rule_violated')
    await bad(`fieldSort=${num.id}&sort=priority`, 422, 'rule_violated')
    await bad(`fieldValue=3`, 422, 'rule_violated')
    await bad(`fieldId=${num.id}&fieldValue=abc`, 422, 'rule_violated')
    await bad(`fieldSort=cf_${'0'.repeat(26)}`, 422, 'reference_not_found')
    // A cursor of a select sort stops working once an option moves.
    const first = await ws.api.get(`${org}/tasks?fieldSort=${sel.id}&limit=1`)
    await ws.api.post(`${org}/custom-fields/${sel.id}/options/${l}/move`, { beforeId: s })
    await bad(`fieldSort=${sel.id}&limit=1&cursor=${first.body.nextCursor}`, 400, 'invalid_cursor')
  }, 180_000)
})
