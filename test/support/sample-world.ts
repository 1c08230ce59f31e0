import { expect } from 'vitest'
import { activeConnection } from './connectors.ts'
import type { TestServer } from './http.ts'
import { newWorkspace, type TestWorkspace } from './workspace.ts'

export type Ids = Record<string, string>

/** Path values that are names every world shares, not a tenant's ids: crossing them crosses nothing. */
export const SHARED_NAMES = new Set(['providerId', 'recordType', 'propertyKey'])

/** A workspace with one record of every kind, and the ids the matrix fills paths with. */
export async function sampleWorld(server: TestServer): Promise<{ ids: Ids; ws: TestWorkspace }> {
  // A team key of its own, so one world's task keys never resolve in another's org.
  const ws = await newWorkspace(server, {
    teamKey: `W${Math.random().toString(36).slice(2, 7).toUpperCase()}`,
  })
  const base = `/v1/orgs/${ws.orgId}`
  const member = await ws.addMember('member')
  const runner = server.as(
    await server.engine.tokens.issueAccessToken({
      userId: ws.owner.user.id,
      scopes: ['work:read', 'work:write', 'agents:run'],
    }),
  )
  const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Matrix' })).body
  const agent = (await ws.api.post(`${base}/agents`, { name: 'Bot' })).body
  const blocker = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Blocker' })).body
  const related = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Related' })).body
  const other = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Other' })).body
  await ws.api.put(`${base}/tasks/${task.id}/blockers/${blocker.id}`)
  await ws.api.put(`${base}/tasks/${task.id}/relations/${related.id}`, { type: 'related' })
  const link = (await ws.api.post(`${base}/tasks/${task.id}/links`, { url: 'https://example.com' })).body
  const otherLink = (await ws.api.post(`${base}/tasks/${task.id}/links`, { url: 'https://example.com/2' }))
    .body
  await ws.api.post(`${base}/grants`, {
    subjectType: 'agent',
    subjectId: agent.id,
    containerType: 'team',
    containerId: ws.teamId,
    capability: 'manage',
  })
  const session = (await runner.post(`${base}/agent-sessions`, { agentId: agent.id, taskId: task.id })).body
  const proposal = (
    await runner.post(`${base}/agent-sessions/${session.id}/actions`, {
      operationId: 'tasks.delete',
      params: { taskId: task.id },
    })
  ).body
  // An org policy gating an operation the matrix never has an agent propose.
  const approvalPolicy = (
    await ws.api.post(`${base}/approval-policies`, {
      containerType: 'org',
      containerId: ws.orgId,
      operations: ['projects.delete'],
    })
  ).body
  const invitation = (
    await ws.api.post(`${base}/invitations`, { email: 'someone@example.com', role: 'member' })
  ).body
  const grant = (
    await ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: member.memberId,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'view',
    })
  ).body
  const cycle = (
    await ws.api.post(`${base}/teams/${ws.teamId}/cycles`, {
      startsAt: '2030-01-07T00:00:00.000Z',
      endsAt: '2030-01-21T00:00:00.000Z',
    })
  ).body
  await ws.api.patch(`${base}/tasks/${task.id}`, { cycleId: cycle.id })
  // A completed cycle, for what only a finished cycle allows (archive).
  const completedCycle = (
    await ws.api.post(`${base}/teams/${ws.teamId}/cycles`, {
      startsAt: '2029-01-01T00:00:00.000Z',
      endsAt: '2029-01-15T00:00:00.000Z',
    })
  ).body
  await ws.api.post(`${base}/cycles/${completedCycle.id}/complete`)
  const label = (await ws.api.post(`${base}/labels`, { name: 'Bug', teamId: ws.teamId })).body
  await ws.api.put(`${base}/tasks/${task.id}/labels/${label.id}`)
  const otherLabel = (await ws.api.post(`${base}/labels`, { name: 'Security', teamId: ws.teamId })).body
  const comment = (await ws.api.post(`${base}/tasks/${task.id}/comments`, { body: 'Matrix' })).body
  const reaction = (await ws.api.post(`${base}/tasks/${task.id}/reactions`, { emoji: '👍' })).body
  const commentReaction = (await ws.api.post(`${base}/comments/${comment.id}/reactions`, { emoji: '👍' }))
    .body
  const status = (await ws.api.post(`${base}/project-statuses`, { name: 'Sample', category: 'started' })).body
  const statuses = (await ws.api.get(`${base}/project-statuses?limit=200`)).body.data
  const otherTeam = (await ws.api.post(`${base}/teams`, { name: 'Other', key: 'OTHER' })).body
  const project = (await ws.api.post(`${base}/projects`, { name: 'Sample', teamIds: [ws.teamId] })).body
  const milestone = (await ws.api.post(`${base}/projects/${project.id}/milestones`, { name: 'Sample' })).body
  await ws.api.patch(`${base}/tasks/${task.id}`, { milestoneId: milestone.id })
  const orgLabel = (await ws.api.post(`${base}/labels`, { name: 'Customer request' })).body
  const otherMilestone = (await ws.api.post(`${base}/projects/${project.id}/milestones`, { name: 'Later' }))
    .body
  const otherProject = (await ws.api.post(`${base}/projects`, { name: 'Other', teamIds: [ws.teamId] })).body
  const relation = (
    await ws.api.post(`${base}/projects/${project.id}/relations`, {
      type: 'blocks',
      milestoneId: milestone.id,
      relatedProjectId: otherProject.id,
    })
  ).body
  // The owner's GitHub connection (a fake GitHub: test/support/connectors.ts) and an item read through it.
  const owner = (await server.storage.read((s) => s.members.findByUser(ws.orgId, ws.owner.user.id)))!
  const connectionId = await activeConnection(server, ws.orgId, owner.id, ws.owner.user.id)
  const linker = server.as(
    await server.engine.tokens.issueAccessToken({ userId: ws.owner.user.id, scopes: ['connectors:link'] }),
  )
  const linkedItem = (
    await linker.post(`${base}/tasks/${task.id}/linked-items`, {
      url: 'https://github.com/acme/api/issues/1',
    })
  ).body
  const projectLinkedItem = (
    await linker.post(`${base}/projects/${project.id}/linked-items`, {
      url: 'https://github.com/acme/api/issues/1',
    })
  ).body
  // An app property on the sample task, set by a token without an OAuth client (namespace '').
  await linker.put(`${base}/records/task/${task.id}/properties/sample`, { value: { externalId: 'EXT-1' } })
  const update = (
    await ws.api.post(`${base}/projects/${project.id}/updates`, { body: 'Sample', health: 'onTrack' })
  ).body
  await ws.api.patch(`${base}/updates/${update.id}`, { body: 'Sample, edited' })
  // The member comments on the owner's task (the owner, its creator and subscriber, is notified) and
  // assigns the other task to the owner: two notifications, for the batch examples.
  await member.api.post(`${base}/tasks/${task.id}/comments`, { body: 'For the owner' })
  await member.api.patch(`${base}/tasks/${other.id}`, { assigneeId: owner.id })
  await server.engine.notify()
  const [notification, otherNotification] = (await ws.api.get(`${base}/notifications`)).body.data
  // The owner follows the other team and mutes the other project (after the notifier ran).
  const subscription = (
    await ws.api.post(`${base}/notification-rules`, {
      target: { type: 'team', id: otherTeam.id },
      kinds: ['taskCreated'],
    })
  ).body
  const mute = (
    await ws.api.post(`${base}/notification-mutes`, { record: { type: 'project', id: otherProject.id } })
  ).body
  const automationRule = (
    await ws.api.post(`${base}/teams/${ws.teamId}/automation-rules`, {
      name: 'Sample',
      trigger: { on: 'taskCreated' },
      actions: [{ type: 'setPriority', value: 'high' }],
    })
  ).body
  const view = (
    await ws.api.post(`${base}/views`, { name: 'Sample', filter: { priority: 'high' }, teamId: ws.teamId })
  ).body
  // The owner's own layout of it, so dropping one's overrides has something to drop.
  await ws.api.put(`${base}/views/${view.id}/preferences`, { preferences: { layout: 'board' } })
  const initiative = (await ws.api.post(`${base}/initiatives`, { name: 'Sample' })).body
  // An initiative linking two projects in order, so moving one changes something.
  const ordered = (await ws.api.post(`${base}/initiatives`, { name: 'Ordered' })).body
  const orderedProjectIds: string[] = []
  for (const name of ['First', 'Second']) {
    const linked = (await ws.api.post(`${base}/projects`, { name, teamIds: [ws.teamId] })).body
    await ws.api.put(`${base}/initiatives/${ordered.id}/projects/${linked.id}`)
    orderedProjectIds.push(linked.id)
  }
  const resourceLink = (
    await ws.api.post(`${base}/projects/${project.id}/links`, { url: 'https://example.com/spec' })
  ).body
  // Owned by the member, set after creation so they do not follow it (subscribing them changes something).
  await ws.api.patch(`${base}/initiatives/${initiative.id}`, { ownerId: member.memberId })
  await ws.api.put(`${base}/initiatives/${initiative.id}/metric`, { unit: 'number', initial: 0, target: 10 })
  const document = (
    await ws.api.post(`${base}/documents`, {
      holderType: 'project',
      holderId: project.id,
      title: 'Sample',
      content: 'First',
    })
  ).body
  await ws.api.patch(`${base}/documents/${document.id}`, { content: 'Second' })
  const attachment = (
    await server.request(
      'POST',
      `${base}/attachments?recordType=task&recordId=${task.id}&fileName=sample.txt`,
      {
        token: ws.owner.token,
        rawBody: 'Sample',
        headers: { 'content-type': 'application/octet-stream' },
      },
    )
  ).body
  const firstVersion = (await ws.api.get(`${base}/documents/${document.id}/versions`)).body.data.at(-1)
  const field = (
    await ws.api.post(`${base}/custom-fields`, {
      name: 'Sample',
      type: 'select',
      recordKinds: ['task', 'project'],
      options: [{ name: 'One' }, { name: 'Two' }],
    })
  ).body
  await ws.api.patch(`${base}/tasks/${task.id}`, { fields: { [field.id]: field.options[0].id } })
  await ws.api.patch(`${base}/projects/${project.id}`, { fields: { [field.id]: field.options[0].id } })
  const skeleton = {
    title: 'Sample',
    description: null,
    priority: 'none',
    estimate: null,
    labelIds: [],
    dueOffsetDays: 1,
  }
  const template = (
    await ws.api.post(`${base}/templates`, {
      teamId: ws.teamId,
      kind: 'task',
      name: 'Sample',
      task: skeleton,
    })
  ).body
  const scheduled = (
    await ws.api.post(`${base}/templates`, {
      teamId: ws.teamId,
      kind: 'task',
      name: 'Scheduled',
      task: skeleton,
    })
  ).body
  const recurrence = (
    await ws.api.post(`${base}/recurrences`, {
      teamId: ws.teamId,
      templateId: scheduled.id,
      name: 'Sample',
      schedule: { frequency: 'weekly', weekdays: ['monday'] },
    })
  ).body
  const reminder = (
    await ws.api.post(`${base}/tasks/${task.id}/reminders`, { remindAt: '2099-01-01T00:00:00.000Z' })
  ).body
  const entry = (await ws.api.post(`${base}/tasks/${task.id}/time-entries`, { minutes: 25 })).body
  const allocation = (
    await ws.api.post(`${base}/allocations`, {
      projectId: project.id,
      memberId: member.memberId,
      startDate: '2031-01-06',
      endDate: '2031-02-28',
      unit: 'hoursPerWeek',
      amount: 8,
    })
  ).body
  const projectReaction = (await ws.api.post(`${base}/projects/${project.id}/reactions`, { emoji: '👍' }))
    .body
  const updateReaction = (await ws.api.post(`${base}/updates/${update.id}/reactions`, { emoji: '👍' })).body
  const domain = (await ws.api.post(`${base}/domains`, { domain: 'sample.example' })).body
  const exported = (await ws.api.post(`${base}/exports`, {})).body
  const imported = (
    await ws.api.post(`${base}/imports`, { format: 'csv', teamId: ws.teamId, content: 'title\nSample' })
  ).body
  // A program holding two projects of its own; the sample project is not in it, so it can be added.
  const program = (await ws.api.post(`${base}/programs`, { name: 'Sample' })).body
  const programProjectIds: string[] = []
  for (const name of ['Held 1', 'Held 2']) {
    const held = (await ws.api.post(`${base}/projects`, { name, teamIds: [ws.teamId] })).body
    await ws.api.put(`${base}/programs/${program.id}/projects/${held.id}`)
    programProjectIds.push(held.id)
  }
  await ws.api.post(`${base}/programs/${program.id}/updates`, { body: 'Sample', health: 'onTrack' })
  // Triage on, with one request waiting in it.
  await ws.api.patch(`${base}/teams/${ws.teamId}/settings`, { triageEnabled: true })
  const triageTask = (await ws.api.post(`${base}/teams/${ws.teamId}/triage`, { title: 'Sample request' }))
    .body
  const ids: Ids = {
    triageTaskId: triageTask.id,
    orgId: ws.orgId,
    teamId: ws.teamId,
    taskId: task.id,
    stateId: ws.states.Todo!.id,
    memberId: member.memberId,
    /** The caller of the contract tests: the org's owner. */
    ownerMemberId: owner.id,
    agentId: agent.id,
    agentSessionId: session.id,
    approvalRequestId: proposal.approvalRequest.id,
    /** An org approval policy gating `projects.delete`. */
    policyId: approvalPolicy.id,
    invitationId: invitation.id,
    grantId: grant.id,
    actorId: member.memberId,
    cycleId: cycle.id,
    completedCycleId: completedCycle.id,
    blockerId: blocker.id,
    relatedTaskId: related.id,
    otherTaskId: other.id,
    linkId: link.id,
    /** A second link of the sample task, after `linkId` (so moving one changes something). */
    otherLinkId: otherLink.id,
    key: task.key,
    labelId: label.id,
    /** A label no task carries yet. */
    otherLabelId: otherLabel.id,
    commentId: comment.id,
    reactionId: reaction.id,
    /** `reactionId` names a task's reaction; these react to the sample comment, project and update. */
    commentReactionId: commentReaction.id,
    projectReactionId: projectReaction.id,
    updateReactionId: updateReaction.id,
    /** A project status no project is in, so it can be archived. */
    statusId: status.id,
    /** The org's default In Progress status, which the example projects are in. */
    startedStatusId: statuses.find((s: { name: string }) => s.name === 'In Progress').id,
    /** Every active project status of the org, comma-separated. */
    projectStatusIds: statuses.map((s: { id: string }) => s.id).join(','),
    projectId: project.id,
    milestoneId: milestone.id,
    /** An org label (projects carry only org labels). */
    orgLabelId: orgLabel.id,
    /** The sample project's second milestone, after `milestoneId`. */
    otherMilestoneId: otherMilestone.id,
    /** A project the sample project is not related to yet (its milestone blocks it: `relationId`). */
    otherProjectId: otherProject.id,
    relationId: relation.id,
    /** A status update of the sample project, edited once (it has history). */
    updateId: update.id,
    /** A view of the sample tasks, shared with the sample team. */
    viewId: view.id,
    /** An initiative owned by `memberId`, with a metric and no project, program or member yet. */
    initiativeId: initiative.id,
    /** An initiative linking two projects, `orderedProjectId` last. */
    orderedInitiativeId: ordered.id,
    orderedProjectId: orderedProjectIds[1]!,
    /** Both, in the initiative's order. */
    orderedProjectIds: orderedProjectIds.join(','),
    /** A URL link of the sample project. */
    resourceLinkId: resourceLink.id,
    /** A document of the sample project, edited once. */
    documentId: document.id,
    /** Its first content version, which differs from the current content (restoring it changes something). */
    versionId: firstVersion.id,
    /** A text file the owner attached to the sample task. */
    attachmentId: attachment.id,
    /** A pending email domain of the org (its TXT record is not published). */
    domainId: domain.id,
    /** A queued export and a queued CSV import of the org (the transfer job is not run). */
    exportId: exported.id,
    importId: imported.id,
    /** A select custom field of tasks and projects; the sample task and project hold its first option, `optionId`. */
    fieldId: field.id,
    optionId: field.options[0].id,
    otherOptionId: field.options[1].id,
    /** A task template of the sample team that no recurring work uses (so it can be deleted). */
    templateId: template.id,
    /** Weekly recurring work from another task template of the sample team. */
    recurrenceId: recurrence.id,
    /** The owner's reminder on the sample task. */
    reminderId: reminder.id,
    /** The owner's time entry on the sample task. */
    entryId: entry.id,
    /** The member's allocation to the sample project. */
    allocationId: allocation.id,
    /** A program without members or teams, holding two projects but not the sample one. */
    programId: program.id,
    /** The projects of the sample program, in order, comma-separated. */
    programProjectIds: programProjectIds.join(','),
    /** A team the sample project does not span yet. */
    otherTeamId: otherTeam.id,
    connectionId,
    linkedItemId: linkedItem.id,
    /** `linkedItemId` is linked to the sample task; a project's item operations take this one. */
    projectLinkedItemId: projectLinkedItem.id,
    /** Names, not ids: the same in every world (a configured provider; the sample task's property). */
    providerId: 'github',
    recordType: 'task',
    recordId: task.id,
    propertyKey: 'sample',
    /** The owner's unread notifications of the member's comment and assignment. */
    notificationId: notification?.id,
    otherNotificationId: otherNotification?.id,
    /** The owner's notification rule on `otherTeamId`. */
    ruleId: subscription.id,
    automationRuleId: automationRule.id,
    /** The owner's mute of `otherProjectId`. */
    muteId: mute.id,
    /** Every active state of the team, comma-separated. */
    stateIds: (await ws.api.get(`${base}/teams/${ws.teamId}/states`)).body.data
      .map((s: { id: string }) => s.id)
      .join(','),
  }
  for (const [name, value] of Object.entries(ids)) {
    if (SHARED_NAMES.has(name)) continue
    expect(value, name).toMatch(name === 'key' ? /^[A-Z0-9]+-[0-9]+$/ : /^[a-z]+_/)
  }
  return { ids, ws }
}
