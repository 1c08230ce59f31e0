import type { ActorId, CustomFieldId, LabelId, OrgId, ProjectId, ReadScope, TeamId } from '@workgraph/core'
import type { TaskIntakeRequest } from '@workgraph/core/storage'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEngine, exec, newPerson, type TestEngine, type TestPerson } from '../support/fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'

const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((x, y) => (x.id < y.id ? -1 : 1))

// `taskIntake.read` answers in one statement what tasks.create once read in six: each kind it
// decodes must equal the single read it replaces (packages/core/src/tasks/intake-storage.ts), for
// records present, absent, archived and hidden from the reader. Labels and fields come in no order.
describeEachDatabase('the task intake equals the single reads it replaces', (db) => {
  let t: TestEngine
  let owner: TestPerson
  let orgId: OrgId
  const ids: Record<string, string> = {}
  let orgWide: ReadScope
  let scoped: ReadScope

  beforeAll(async () => {
    t = await createTestEngine(db)
    owner = await newPerson(t.engine)
    orgId = (await exec(t, 'orgs.create', { body: { name: 'Intake' } }, owner.principal)).id
    const run = (op: string, params: Record<string, string | undefined>, body?: unknown) =>
      exec(t, op, { params: { orgId, ...params }, query: {}, body }, owner.principal)
    const me = (await run('members.list', {})).data[0].id
    ids.team = (await run('teams.create', {}, { name: 'Team', key: 'TM' })).id
    ids.bare = (await run('teams.create', {}, { name: 'Bare', key: 'BR' })).id
    ids.hidden = (await run('teams.create', {}, { name: 'Hidden', key: 'HD' })).id
    // Settings and triage settings of one team; the other keeps no settings record.
    await run(
      'teams.settings.update',
      { teamId: ids.team },
      { estimateScale: 'fibonacci', autoCloseDays: 30 },
    )
    await run(
      'triageSettings.update',
      { teamId: ids.team },
      { responsibility: 'fixed', action: 'notify', memberIds: [me] },
    )
    // An extra state, and an archived one that the intake must leave out.
    await run('states.create', { teamId: ids.team }, { name: 'Review', category: 'started', position: 1 })
    const gone = await run('states.create', { teamId: ids.team }, { name: 'Gone', category: 'started' })
    await run('states.archive', { stateId: gone.id })
    // Projects: visible, archived, in a hidden team, and in a hidden team but granted directly.
    ids.project = (await run('projects.create', {}, { name: 'Seen', teamIds: [ids.team] })).id
    ids.archived = (await run('projects.create', {}, { name: 'Old', teamIds: [ids.team] })).id
    await run('projects.archive', { projectId: ids.archived })
    ids.hiddenProject = (await run('projects.create', {}, { name: 'Shut', teamIds: [ids.hidden] })).id
    ids.granted = (await run('projects.create', {}, { name: 'Lent', teamIds: [ids.hidden] })).id
    // Labels: org-wide, a group with a child in the team, one of the hidden team, an archived one.
    ids.orgLabel = (await run('labels.create', {}, { name: 'Bug' })).id
    ids.group = (await run('labels.create', {}, { name: 'Area', teamId: ids.team, isGroup: true })).id
    ids.child = (
      await run('labels.create', {}, { name: 'API', teamId: ids.team, parentId: ids.group, description: 'x' })
    ).id
    ids.hiddenLabel = (await run('labels.create', {}, { name: 'Secret', teamId: ids.hidden })).id
    ids.archivedLabel = (await run('labels.create', {}, { name: 'Stale' })).id
    await run('labels.archive', { labelId: ids.archivedLabel })
    // Custom fields: plain, with options and teams, archived.
    ids.text = (await run('customFields.create', {}, { name: 'Notes', type: 'text' })).id
    ids.select = (
      await run(
        'customFields.create',
        {},
        { name: 'Size', type: 'select', teamIds: [ids.team], options: [{ name: 'S' }, { name: 'L' }] },
      )
    ).id
    ids.archivedField = (await run('customFields.create', {}, { name: 'Cost', type: 'number' })).id
    await run('customFields.archive', { fieldId: ids.archivedField })

    const none = { teamIds: [], projectIds: [], programIds: [], initiativeIds: [] }
    orgWide = { ...none, orgWide: true, actorId: me as ActorId }
    scoped = {
      ...none,
      orgWide: false,
      actorId: me as ActorId,
      teamIds: [ids.team!],
      projectIds: [ids.granted!],
    }
  })
  afterAll(() => t.close())

  /** The intake and the single reads, on the same transaction's store. */
  async function both(request: TaskIntakeRequest, scope: ReadScope) {
    return t.storage.read(async (s) => {
      const intake = await s.taskIntake.read(orgId, request, scope)
      const single = {
        team: await s.teams.get(orgId, request.teamId),
        settings: await s.teamSettings.get(orgId, request.teamId),
        states: await s.states.listForTeam(orgId, request.teamId, { includeArchived: false }),
        project: request.projectId ? await s.projects.placement(orgId, request.projectId, scope) : null,
        labels: byId(await s.labels.getMany(orgId, request.labelIds, scope)),
        fields: byId(await s.customFields.getMany(orgId, request.fieldIds)),
      }
      return { intake: { ...intake, labels: byId(intake.labels), fields: byId(intake.fields) }, single }
    })
  }

  const request = (over: Partial<TaskIntakeRequest>): TaskIntakeRequest => ({
    teamId: ids.team as TeamId,
    projectId: null,
    labelIds: [],
    fieldIds: [],
    ...over,
  })
  const missing = { label: 'lbl_00000000000000000000000000', field: 'cfd_00000000000000000000000000' }

  const cases: Array<[string, () => TaskIntakeRequest]> = [
    ['a team with settings, states, and nothing else named', () => request({})],
    ['a team without a settings record', () => request({ teamId: ids.bare as TeamId })],
    ['a team that does not exist', () => request({ teamId: 'tem_00000000000000000000000000' as TeamId })],
    [
      'a visible project, every kind of label and field, and ids that name nothing',
      () =>
        request({
          projectId: ids.project as ProjectId,
          labelIds: [
            ids.orgLabel,
            ids.group,
            ids.child,
            ids.hiddenLabel,
            ids.archivedLabel,
            missing.label,
          ].map((id) => id as LabelId),
          fieldIds: [ids.text, ids.select, ids.archivedField, missing.field].map((id) => id as CustomFieldId),
        }),
    ],
    ['an archived project', () => request({ projectId: ids.archived as ProjectId })],
    ['a project of a hidden team', () => request({ projectId: ids.hiddenProject as ProjectId })],
    ['a project of a hidden team granted directly', () => request({ projectId: ids.granted as ProjectId })],
    [
      'a project that does not exist',
      () => request({ projectId: 'prj_00000000000000000000000000' as ProjectId }),
    ],
  ]

  for (const [name, make] of cases) {
    for (const [who, scope] of [
      ['org-wide', () => orgWide],
      ['scoped to one team', () => scoped],
    ] as const) {
      it(`${name}, read ${who}`, async () => {
        const { intake, single } = await both(make(), scope())
        expect(intake).toEqual(single)
      })
    }
  }

  it('the seeded world has something in every branch, so the comparisons compare something', async () => {
    const { intake } = await both(
      request({
        projectId: ids.project as ProjectId,
        labelIds: [ids.orgLabel, ids.child] as LabelId[],
        fieldIds: [ids.select] as CustomFieldId[],
      }),
      orgWide,
    )
    expect(intake.team?.id).toBe(ids.team)
    expect(intake.settings).toMatchObject({ estimateScale: 'fibonacci', autoCloseDays: 30 })
    expect(intake.states.map((s) => s.name)).toContain('Review')
    expect(intake.project).toEqual({ archived: false })
    expect(intake.labels.map((l) => l.id).sort()).toEqual([ids.orgLabel, ids.child].sort())
    expect(intake.fields[0]?.options.map((o) => o.name)).toEqual(['S', 'L'])
  })
})
