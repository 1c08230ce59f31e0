import { type TSchema, Type } from '@sinclair/typebox'
import { changedData, recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { followerEventData } from '../projects/event-data.ts'
import { updateEventData } from '../updates/event-data.ts'
import { Program } from './schemas.ts'

const ProgramIdField = IdSchema('ProgramId')

/** The `data` of program events, as service.ts, labels/labels.ts, links/links.ts, people.ts and initiatives/links.ts emit it. */
export const PROGRAM_EVENT_DATA: Record<string, TSchema> = {
  'program.created': recordData('program', Program),
  'program.updated': changedData('program', Program),
  ...sameData(['program.archived', 'program.restored'], recordData('program', Program)),
  'program.deleted': Type.Object({ id: ProgramIdField, name: Type.String() }),
  'program.projects_reordered': Type.Object({ programId: ProgramIdField }),
  ...sameData(
    ['program.member_added', 'program.member_removed'],
    Type.Object({ programId: ProgramIdField, memberId: IdSchema('MemberId') }),
  ),
  ...sameData(
    ['program.project_added', 'program.project_removed'],
    Type.Object({ programId: ProgramIdField, projectId: IdSchema('ProjectId') }),
  ),
  ...sameData(
    ['program.team_added', 'program.team_removed'],
    Type.Object({ programId: ProgramIdField, teamId: IdSchema('TeamId') }),
  ),
  ...sameData(
    ['initiative.program_added', 'initiative.program_removed'],
    Type.Object({ initiativeId: IdSchema('InitiativeId'), programId: ProgramIdField }),
  ),
  ...updateEventData('program'),
  ...sameData(['program_subscriber.created', 'program_subscriber.deleted'], followerEventData('program')),
}
