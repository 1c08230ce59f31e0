/** The demo's people and the work above tasks: projects, a program, initiatives, fields, views. Pure data. */

/** Who does something in the demo: the person seeding it, or one of the two teammates it creates. */
export type Person = 'me' | 'maya' | 'jonas'

export interface DemoTeammate {
  key: Exclude<Person, 'me'>
  name: string
  /** The address's local part; the seed adds the run's suffix so every run has its own people. */
  mailbox: string
  role: 'admin' | 'member'
  teams: string[]
}

export const DEMO_TEAMMATES: DemoTeammate[] = [
  { key: 'maya', name: 'Maya Chen', mailbox: 'maya.chen', role: 'admin', teams: ['ENG', 'DES'] },
  { key: 'jonas', name: 'Jonas Weber', mailbox: 'jonas.weber', role: 'member', teams: ['OPS'] },
]

export interface DemoProject {
  ref: string
  name: string
  description: string
  teams: string[]
  lead: Person
  priority: 'urgent' | 'high' | 'medium' | 'low'
  /** Days from the run's day. */
  target: number
  milestones: { ref: string; name: string; target: number }[]
  /** A status update and who posts it; the first project's is the at-risk one. */
  update: { by: Person; health: 'onTrack' | 'atRisk' | 'offTrack'; body: string }
}

export const DEMO_PROJECTS: DemoProject[] = [
  {
    ref: 'ota-rollout',
    name: 'R2 over-the-air rollout',
    description: 'Signed, resumable OTA updates for every R2 arm in the field, site by site.',
    teams: ['ENG', 'OPS'],
    lead: 'me',
    priority: 'high',
    target: 30,
    milestones: [
      { ref: 'signed', name: 'Signed images in CI', target: 3 },
      { ref: 'pilot', name: 'Pilot at the Lyon warehouse', target: 12 },
      { ref: 'fleet', name: 'Fleet-wide rollout', target: 30 },
    ],
    update: {
      by: 'maya',
      health: 'atRisk',
      body:
        '**At risk.** Resumable downloads work, but the gripper calibration drift blocks the Lyon pilot: ' +
        'the night shift cannot run until the thermal fix ships. If it lands this week we keep the pilot date; ' +
        'otherwise the pilot moves by a week and fleet-wide follows.',
    },
  },
  {
    ref: 'console',
    name: 'Operator console 2.0',
    description: 'A rollout dashboard and a dark theme for control rooms.',
    teams: ['ENG', 'DES'],
    lead: 'maya',
    priority: 'medium',
    target: 45,
    milestones: [
      { ref: 'mockups', name: 'Dashboard mock-ups signed off', target: 7 },
      { ref: 'beta', name: 'Console beta', target: 40 },
    ],
    update: {
      by: 'maya',
      health: 'onTrack',
      body: 'Mock-ups are in review with three site leads; the API for update status is next.',
    },
  },
  {
    ref: 'lyon',
    name: 'Lyon warehouse go-live',
    description: 'Four R2 arms running two shifts at the Lyon warehouse.',
    teams: ['OPS', 'ENG'],
    lead: 'jonas',
    priority: 'high',
    target: 14,
    milestones: [{ ref: 'installed', name: 'Units installed and calibrated', target: 5 }],
    update: {
      by: 'jonas',
      health: 'offTrack',
      body: 'Two of four units are mounted. Calibration drift stops the night shift; training moved out a week.',
    },
  },
]

export const DEMO_PROGRAM = {
  name: 'Field reliability',
  description: 'Keep every deployed arm running: updates, calibration, site support.',
  projects: ['ota-rollout', 'lyon'],
}

export const DEMO_INITIATIVES = {
  parent: {
    name: 'Autonomous fleet operations',
    description: 'Run a growing fleet without a technician visit for every change.',
    target: 120,
  },
  child: {
    name: 'Zero-touch updates',
    description: 'Every unit updates itself safely, and rolls back on its own.',
    target: 60,
    projects: ['ota-rollout', 'console'],
  },
}

/** Custom fields on tasks; the select's options are named here and set on tasks by name. */
export const DEMO_FIELDS = {
  impact: {
    name: 'Customer impact',
    description: 'How much customers feel it.',
    options: [
      { name: 'Low', color: '#4cb782' },
      { name: 'Medium', color: '#f2c94c' },
      { name: 'High', color: '#eb5757' },
    ],
  },
  site: { name: 'Site', description: 'The customer site it concerns.' },
}

export const DEMO_DOCUMENT = {
  project: 'ota-rollout',
  title: 'OTA rollout plan',
  content:
    '## Goal\nEvery R2 arm updates itself over the air, with rollback, without a site visit.\n\n' +
    '## Stages\n1. Signed images in CI\n2. Pilot at Lyon (four units, one week)\n3. Fleet-wide, 10% of units a day\n\n' +
    '## Rollback\nA unit that fails to boot three times returns to its previous image and reports it.\n',
}
