import type { SeedContext } from './context.ts'
import {
  DEMO_DOCUMENT,
  DEMO_FIELDS,
  DEMO_INITIATIVES,
  DEMO_PROGRAM,
  DEMO_PROJECTS,
  type Person,
} from './demo-portfolio.ts'

/** Custom fields, and the projects with their milestones: the tasks refer to both. */
export function structureSteps(ctx: SeedContext): void {
  const { ids, step, count } = ctx
  step('field:impact', `Custom field ${DEMO_FIELDS.impact.name}`, async (key) => {
    const { impact } = DEMO_FIELDS
    const created = await ctx.api.post<{ id: string; options: { id: string; name: string }[] }>(
      `${ctx.org()}/custom-fields`,
      { name: impact.name, description: impact.description, type: 'select', options: impact.options },
      key,
    )
    ids.fields.set('impact', created.id)
    for (const option of created.options) ids.impactOptions.set(option.name, option.id)
    count('custom fields')
  })
  step('field:site', `Custom field ${DEMO_FIELDS.site.name}`, async (key) => {
    const { site } = DEMO_FIELDS
    const created = await ctx.api.post(
      `${ctx.org()}/custom-fields`,
      { name: site.name, description: site.description, type: 'text' },
      key,
    )
    ids.fields.set('site', created.id)
    count('custom fields')
  })

  const lead = (person: Person) => ids.members.get(person) ?? ids.members.get('me')
  for (const project of DEMO_PROJECTS) {
    step(`project:${project.ref}`, `Project ${project.name}`, async (key) => {
      const body = {
        name: project.name,
        description: project.description,
        teamIds: project.teams.map((team) => ids.teams.get(team)),
        leadId: lead(project.lead),
        priority: project.priority,
        startDate: ctx.day(-14),
        targetDate: ctx.day(project.target),
        updateCadence: 'weekly',
      }
      ids.projects.set(project.ref, (await ctx.api.post(`${ctx.org()}/projects`, body, key)).id)
      count('projects')
    })
    for (const milestone of project.milestones) {
      step(`milestone:${project.ref}:${milestone.ref}`, `Milestone ${milestone.name}`, async (key) => {
        const created = await ctx.api.post(
          `${ctx.org()}/projects/${ids.projects.get(project.ref)}/milestones`,
          { name: milestone.name, targetDate: ctx.day(milestone.target) },
          key,
        )
        ids.milestones.set(`${project.ref}/${milestone.ref}`, created.id)
        count('milestones')
      })
    }
  }
}

/** Status updates, the program and the initiatives over the projects, a document and a saved view. */
export function portfolioSteps(ctx: SeedContext): void {
  const { ids, step, count } = ctx
  for (const project of DEMO_PROJECTS) {
    step(`update:${project.ref}`, `Status update on ${project.name}`, async (key) => {
      const { by, health, body } = project.update
      await ctx
        .as(by)
        .post(`${ctx.org()}/projects/${ids.projects.get(project.ref)}/updates`, { body, health }, key)
      count('status updates')
    })
  }

  let programId = ''
  step('program', `Program ${DEMO_PROGRAM.name}`, async (key) => {
    const body = {
      name: DEMO_PROGRAM.name,
      description: DEMO_PROGRAM.description,
      ownerId: ids.members.get('me'),
    }
    programId = (await ctx.api.post(`${ctx.org()}/programs`, body, key)).id
    count('programs')
  })
  for (const project of DEMO_PROGRAM.projects) {
    step(`program-project:${project}`, `Program holds ${project}`, async () => {
      await ctx.api.put(`${ctx.org()}/programs/${programId}/projects/${ids.projects.get(project)}`)
    })
  }

  let parentId = ''
  let childId = ''
  const { parent, child } = DEMO_INITIATIVES
  step('initiative', `Initiative ${parent.name}`, async (key) => {
    const body = {
      name: parent.name,
      description: parent.description,
      ownerId: ids.members.get('me'),
      status: 'active',
      targetDate: ctx.day(parent.target),
    }
    parentId = (await ctx.api.post(`${ctx.org()}/initiatives`, body, key)).id
    count('initiatives')
  })
  step('sub-initiative', `Sub-initiative ${child.name}`, async (key) => {
    const body = {
      name: child.name,
      description: child.description,
      ownerId: ids.members.get('maya') ?? ids.members.get('me'),
      status: 'active',
      targetDate: ctx.day(child.target),
      parentId,
    }
    childId = (await ctx.api.post(`${ctx.org()}/initiatives`, body, key)).id
    count('initiatives')
  })
  step('initiative-program', 'Initiative holds the program', async () => {
    await ctx.api.put(`${ctx.org()}/initiatives/${parentId}/programs/${programId}`)
  })
  for (const project of child.projects) {
    step(`initiative-project:${project}`, `Sub-initiative holds ${project}`, async () => {
      await ctx.api.put(`${ctx.org()}/initiatives/${childId}/projects/${ids.projects.get(project)}`)
    })
  }

  step('document', `Document ${DEMO_DOCUMENT.title}`, async (key) => {
    const body = {
      holderType: 'project',
      holderId: ids.projects.get(DEMO_DOCUMENT.project),
      title: DEMO_DOCUMENT.title,
      content: DEMO_DOCUMENT.content,
    }
    await ctx.as('maya').post(`${ctx.org()}/documents`, body, key)
    count('documents')
  })

  step('view', 'Saved view My blocked work', async (key) => {
    const body = {
      name: 'My blocked work',
      description: 'Tasks assigned to me that wait on another task.',
      filter: { assigneeId: ids.members.get('me'), blocked: true, sort: 'dueDate' },
    }
    await ctx.api.post(`${ctx.org()}/views`, body, key)
    count('saved views')
  })
}
