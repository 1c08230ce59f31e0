/** The demo workspace: a small robotics company mid-way through a release. Pure data, no I/O. */

import type { Person } from './demo-portfolio.ts'

export type Priority = 'none' | 'urgent' | 'high' | 'medium' | 'low'

export interface DemoTeam {
  key: string
  name: string
  description: string
  /** Extra workflow states beyond the defaults every team gets. */
  states: { name: string; category: 'triage' | 'started'; color: string }[]
}

export interface DemoTask {
  /** A local name other tasks use for dependencies and relations. */
  ref: string
  team: string
  title: string
  description?: string
  state: string
  priority: Priority
  estimate?: number
  /** Days from the day the seed runs: negative is overdue, 0 is due today. */
  due?: number
  labels?: string[]
  cycle?: 'current' | 'next'
  assignee?: Person
  /** A project of demo-portfolio.ts, and one of its milestones. */
  project?: string
  milestone?: string
  /** Custom field values: the `Customer impact` option and the `Site` text. */
  impact?: 'Low' | 'Medium' | 'High'
  site?: string
  subtasks?: { title: string; state: string; estimate?: number }[]
  blockedBy?: string[]
  relatedTo?: string[]
  /** Threads; `{me}` in a body becomes the seeding person's @-handle. Written by `by` (default: you). */
  comments?: { body: string; by?: Person; replies?: { body: string; by?: Person }[] }[]
}

export const DEMO_TEAMS: DemoTeam[] = [
  {
    key: 'ENG',
    name: 'Engineering',
    description: 'Firmware, fleet backend and the operator console.',
    states: [{ name: 'QA', category: 'started', color: '#26b5ce' }],
  },
  {
    key: 'DES',
    name: 'Design',
    description: 'Product and interaction design for the operator console.',
    states: [],
  },
  {
    key: 'OPS',
    name: 'Field Ops',
    description: 'Deployments, customer sites and support escalations.',
    states: [{ name: 'Triage', category: 'triage', color: '#fc7840' }],
  },
]

/** Org-wide labels; `Area` is a group, of which a task carries at most one. */
export const DEMO_LABELS: { name: string; color: string; group?: string; isGroup?: boolean }[] = [
  { name: 'Bug', color: '#eb5757' },
  { name: 'Feature', color: '#bb87fc' },
  { name: 'Improvement', color: '#4ea7fc' },
  { name: 'Customer', color: '#f2994a' },
  { name: 'Area', color: '#95a2b3', isGroup: true },
  { name: 'Firmware', color: '#4cb782', group: 'Area' },
  { name: 'Backend', color: '#5e6ad2', group: 'Area' },
  { name: 'Console', color: '#f7c8c1', group: 'Area' },
]

export const DEMO_AGENTS: { name: string; description: string; approvalPolicy?: object }[] = [
  {
    name: 'Triage Bot',
    description: 'Labels and routes incoming support tickets; asks before closing anything.',
    approvalPolicy: { capabilities: ['manage'], operations: ['tasks.delete', 'tasks.archive'] },
  },
  {
    name: 'Release Notes Writer',
    description: 'Drafts release notes from completed tasks at the end of each cycle.',
  },
]

export const DEMO_TASKS: DemoTask[] = [
  {
    ref: 'ota',
    team: 'ENG',
    title: 'Over-the-air firmware updates for the R2 arm',
    description:
      'Ship signed, resumable OTA updates so field units stop needing a technician visit for every release.\n\n' +
      '- A/B partitions with automatic rollback\n- Delta images to keep downloads under 20 MB\n- Staged rollout by site',
    state: 'In Progress',
    assignee: 'maya',
    project: 'ota-rollout',
    milestone: 'pilot',
    impact: 'High',
    priority: 'high',
    estimate: 13,
    due: 9,
    labels: ['Feature', 'Firmware'],
    cycle: 'current',
    subtasks: [
      { title: 'A/B partition layout and bootloader switch', state: 'Done', estimate: 3 },
      { title: 'Sign images in CI with the release key', state: 'In Review', estimate: 2 },
      { title: 'Resume interrupted downloads', state: 'In Progress', estimate: 3 },
      { title: 'Roll back after three failed boots', state: 'Todo', estimate: 3 },
    ],
    comments: [
      {
        body: 'Delta images cut the median download from 140 MB to 18 MB on the test fleet.',
        by: 'maya',
        replies: [
          { body: 'Great. Can we stage the first rollout to the Lyon site only?' },
          { body: 'Yes, that is the plan.', by: 'maya' },
        ],
      },
    ],
  },
  {
    ref: 'fleet-api',
    team: 'ENG',
    title: 'Fleet API: report update status per unit',
    description: 'The console needs each unit’s update state (downloading, staged, applied, rolled back).',
    state: 'Todo',
    assignee: 'me',
    project: 'ota-rollout',
    milestone: 'pilot',
    priority: 'high',
    estimate: 5,
    due: 0,
    labels: ['Feature', 'Backend'],
    cycle: 'current',
    blockedBy: ['ota'],
    subtasks: [
      { title: 'Schema for update events', state: 'Todo', estimate: 2 },
      { title: 'Endpoint and pagination', state: 'Backlog', estimate: 2 },
    ],
  },
  {
    ref: 'console-rollout',
    team: 'ENG',
    title: 'Console: rollout dashboard',
    state: 'Backlog',
    assignee: 'maya',
    project: 'console',
    milestone: 'beta',
    priority: 'medium',
    estimate: 8,
    labels: ['Feature', 'Console'],
    cycle: 'next',
    blockedBy: ['fleet-api', 'rollout-design'],
  },
  {
    ref: 'gripper-drift',
    team: 'ENG',
    title: 'Gripper calibration drifts after 6 hours of operation',
    description:
      'Reported by two sites. Torque readings creep by ~4% per hour; suspect thermal compensation.',
    state: 'In Progress',
    assignee: 'me',
    project: 'lyon',
    milestone: 'installed',
    impact: 'High',
    site: 'Lyon',
    priority: 'urgent',
    estimate: 5,
    due: -2,
    labels: ['Bug', 'Firmware', 'Customer'],
    cycle: 'current',
    comments: [
      {
        body: 'Reproduced on bench unit 7 with the enclosure closed. Open enclosure: no drift.',
        by: 'maya',
        replies: [{ body: 'So it is thermal. I will add the sensor to the compensation table.' }],
      },
      { body: 'Lyon says this blocks their night shift. Raising to urgent.', by: 'jonas' },
      {
        body: '@{me} the compensation table change is ready: can you sign it off today? Lyon restarts the night shift as soon as it ships.',
        by: 'maya',
      },
    ],
  },
  {
    ref: 'telemetry-gaps',
    team: 'ENG',
    title: 'Telemetry gaps when a unit reconnects',
    state: 'QA',
    due: 1,
    assignee: 'me',
    priority: 'medium',
    estimate: 3,
    labels: ['Bug', 'Backend'],
    cycle: 'current',
    relatedTo: ['gripper-drift'],
  },
  {
    ref: 'pg-upgrade',
    team: 'ENG',
    title: 'Upgrade the fleet database to Postgres 17',
    state: 'Done',
    assignee: 'maya',
    priority: 'low',
    estimate: 3,
    labels: ['Improvement', 'Backend'],
    cycle: 'current',
  },
  {
    ref: 'flaky-hil',
    team: 'ENG',
    title: 'Hardware-in-the-loop tests fail one run in twenty',
    state: 'Backlog',
    priority: 'medium',
    estimate: 2,
    labels: ['Improvement', 'Firmware'],
  },
  {
    ref: 'rollout-design',
    team: 'DES',
    title: 'Design the rollout dashboard',
    description: 'Per-site progress, failed units first, one-click pause.',
    state: 'In Review',
    assignee: 'maya',
    project: 'console',
    milestone: 'mockups',
    priority: 'high',
    estimate: 5,
    due: 4,
    labels: ['Feature', 'Console'],
    subtasks: [
      { title: 'Interview three site leads', state: 'Done' },
      { title: 'Wireframes', state: 'Done' },
      { title: 'High-fidelity mock-ups', state: 'In Review' },
    ],
    comments: [{ body: 'Mock-ups are in the shared folder; feedback by Thursday please.', by: 'maya' }],
  },
  {
    ref: 'dark-mode',
    team: 'DES',
    title: 'Dark theme for control-room screens',
    state: 'Todo',
    assignee: 'me',
    project: 'console',
    priority: 'low',
    estimate: 3,
    labels: ['Improvement', 'Console'],
  },
  {
    ref: 'a11y-audit',
    team: 'DES',
    title: 'Accessibility audit of the operator console',
    state: 'Backlog',
    priority: 'medium',
    labels: ['Improvement', 'Console'],
    relatedTo: ['dark-mode'],
  },
  {
    ref: 'lyon-install',
    team: 'OPS',
    title: 'Install four R2 arms at the Lyon warehouse',
    state: 'In Progress',
    assignee: 'jonas',
    project: 'lyon',
    milestone: 'installed',
    site: 'Lyon',
    impact: 'Medium',
    priority: 'high',
    due: 3,
    labels: ['Customer'],
    subtasks: [
      { title: 'Site survey and power check', state: 'Done' },
      { title: 'Mount and calibrate units', state: 'In Progress' },
      { title: 'Train the night shift', state: 'Todo' },
    ],
    blockedBy: ['gripper-drift'],
  },
  {
    ref: 'ticket-4711',
    team: 'OPS',
    title: 'Ticket 4711: unit 12 stops after an emergency stop is released',
    state: 'Triage',
    due: -1,
    assignee: 'me',
    impact: 'Medium',
    site: 'Lyon',
    priority: 'high',
    labels: ['Bug', 'Customer'],
    relatedTo: ['gripper-drift'],
    comments: [
      { body: 'Customer sent a video; attaching the controller logs when they arrive.', by: 'jonas' },
    ],
  },
  {
    ref: 'spares',
    team: 'OPS',
    title: 'Restock spare grippers for the Q1 installs',
    state: 'Todo',
    assignee: 'jonas',
    priority: 'medium',
    due: 20,
  },
  {
    ref: 'runbook',
    team: 'OPS',
    title: 'Write the OTA rollback runbook for site technicians',
    state: 'Backlog',
    assignee: 'jonas',
    project: 'ota-rollout',
    milestone: 'fleet',
    priority: 'medium',
    labels: ['Improvement'],
    blockedBy: ['ota'],
  },
  {
    ref: 'ticket-4712',
    team: 'OPS',
    title: 'Ticket 4712: unit 12 halts after e-stop (duplicate of 4711)',
    state: 'Triage',
    priority: 'medium',
    labels: ['Customer'],
    relatedTo: ['ticket-4711'],
  },
]
