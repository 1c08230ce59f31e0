/**
 * Jira's export files, written for the import tests in its published shapes: the REST search
 * answer and the "Export Excel CSV (all fields)", generated issues plus the awkward ones.
 */
import { csvOf, NOT_UTF8 } from './tool-fixtures.ts'

// ---- Jira ------------------------------------------------------------------------------------

const JIRA_STATUSES = [
  { name: 'To Do', cat: 'new', resolution: null },
  { name: 'In Progress', cat: 'indeterminate', resolution: null },
  { name: 'Done', cat: 'done', resolution: 'Done' },
  { name: 'In Review', cat: 'indeterminate', resolution: null },
  { name: 'Closed', cat: 'done', resolution: "Won't Do" },
] as const
const JIRA_PRIORITIES = ['Highest', 'High', 'Medium', 'Low', 'Lowest']
const sprint = (n: 1 | 2) => ({
  id: n,
  name: `ENG Sprint ${n}`,
  state: 'closed',
  boardId: 1,
  startDate: n === 1 ? '2031-01-06T09:00:00.000Z' : '2031-01-20T09:00:00.000Z',
  endDate: n === 1 ? '2031-01-20T09:00:00.000Z' : '2031-02-03T09:00:00.000Z',
})
const adf = (...paragraphs: string[]) => ({
  type: 'doc',
  version: 1,
  content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })),
})

/** An epic every 25th issue from 1: two epics in the smallest file the import tests use (32 issues). */
const EPIC_EVERY = 25

/** The epics of a generated Jira file of `count` issues, by name: `Epic 1`, `Epic 26`, … */
export const jiraEpics = (count: number) =>
  Array.from({ length: Math.ceil(count / EPIC_EVERY) }, (_, k) => `Epic ${k * EPIC_EVERY + 1}`)

/** Issue `i` of the generated Jira site: epics every 25th from 1, children of them, sub-tasks, links, sprints. */
function jiraIssue(i: number, count: number, ownerEmail: string) {
  const status = JIRA_STATUSES[i % JIRA_STATUSES.length]!
  const epic = i % EPIC_EVERY === 1
  const epicOf = i - ((i - 1) % EPIC_EVERY)
  const person = i % 5 === 0 ? ownerEmail : i % 7 === 0 ? 'newcomer@example.com' : null
  return {
    expand: 'operations,versionedRepresentations,editmeta,changelog,renderedFields',
    id: String(10_000 + i),
    self: `https://acme.atlassian.net/rest/api/3/issue/${10_000 + i}`,
    key: `ENG-${i}`,
    fields: {
      summary: epic ? `Epic ${i}` : `Jira issue ${i}`,
      issuetype: { id: epic ? '10000' : '10001', name: epic ? 'Epic' : 'Task', subtask: false },
      description: i % 9 === 0 ? adf(`Line one of ${i}`, 'line "two", quoted') : null,
      status: { name: status.name, statusCategory: { id: 2, key: status.cat, name: status.cat } },
      resolution: status.resolution ? { name: status.resolution } : null,
      assignee: person ? { accountId: `acc-${i}`, emailAddress: person, displayName: `Person ${i}` } : null,
      priority: { name: i % 13 === 0 ? 'P0' : JIRA_PRIORITIES[i % 5] },
      labels: i % 2 ? ['backend'] : [],
      duedate: i % 8 === 0 ? `2031-03-${String((i % 28) + 1).padStart(2, '0')}` : null,
      parent:
        !epic && i % 10 === 2
          ? {
              id: String(10_000 + epicOf),
              key: `ENG-${epicOf}`,
              fields: { summary: `Epic ${epicOf}`, issuetype: { name: 'Epic' } },
            }
          : !epic && i % 10 === 3 && i + 1 <= count && (i + 1) % EPIC_EVERY !== 1
            ? {
                id: String(10_001 + i),
                key: `ENG-${i + 1}`,
                fields: { summary: `Jira issue ${i + 1}`, issuetype: { name: 'Task' } },
              }
            : undefined,
      issuelinks:
        i % 12 === 4 && i + 1 <= count
          ? [
              {
                id: `l${i}`,
                type: { name: 'Blocks', inward: 'is blocked by', outward: 'blocks' },
                inwardIssue: { id: String(10_001 + i), key: `ENG-${i + 1}` },
              },
            ]
          : [],
      customfield_10020: i % 6 === 0 ? [sprint(1)] : i % 6 === 3 ? [sprint(1), sprint(2)] : null,
      customfield_10016: i % 3 === 0 ? [1, 2, 3, 5, 8][i % 5] : null,
      timeestimate: 7200,
      comment: {
        comments:
          i % 4 === 0
            ? [
                {
                  id: String(50_000 + i * 2),
                  author: { emailAddress: ownerEmail, displayName: 'Owner' },
                  body: adf(`First comment on ${i}`),
                  created: '2030-06-01T10:00:00.000+0000',
                },
                {
                  id: String(50_001 + i * 2),
                  author: { displayName: 'Grace Hopper', accountId: 'acc-grace' },
                  body: `Second\non ${i}`,
                  created: '2030-06-02T11:30:00.000+0200',
                },
              ]
            : [],
        maxResults: 2,
        total: i % 4 === 0 ? 2 : 0,
        startAt: 0,
      },
    },
  }
}

/** `count` generated issues, then: a duplicate id, an empty summary, a title with non-UTF-8 bytes, a non-object, a comment by an unknown email. */
export function jiraJsonExport(count: number, ownerEmail: string) {
  const issues: unknown[] = []
  for (let i = 1; i <= count; i++) issues.push(jiraIssue(i, count, ownerEmail))
  const awkward = [
    {
      ...jiraIssue(3, count, ownerEmail),
      fields: { ...jiraIssue(3, count, ownerEmail).fields, summary: 'A second 10003' },
    },
    {
      id: '19001',
      key: 'ENG-9001',
      fields: { summary: '', status: { name: 'To Do', statusCategory: { key: 'new' } } },
    },
    {
      id: '19002',
      key: 'ENG-9002',
      fields: { summary: `Bytes ${NOT_UTF8}`, status: { name: 'To Do', statusCategory: { key: 'new' } } },
    },
    'not an issue',
    {
      id: '19003',
      key: 'ENG-9003',
      self: 'https://acme.atlassian.net/rest/api/2/issue/19003',
      fields: {
        summary: 'Commented by a stranger',
        status: { name: 'To Do', statusCategory: { key: 'new' } },
        comment: {
          comments: [
            {
              id: '59003',
              author: { emailAddress: 'stranger@example.com' },
              body: 'Hello',
              created: '2030-06-03T08:00:00.000+0000',
            },
          ],
        },
      },
    },
  ]
  const all = [...issues, ...awkward]
  const epics = jiraEpics(count).length
  return {
    content: JSON.stringify({
      expand: 'schema,names',
      startAt: 0,
      maxResults: all.length,
      total: all.length,
      issues: all,
    }),
    rows: all.length,
    epics,
    tasks: count - epics + 1,
    refused: [count + 1, count + 2, count + 3, count + 4],
  }
}

export const JIRA_CSV_HEADER = [
  'Summary',
  'Issue key',
  'Issue id',
  'Issue Type',
  'Status',
  'Status Category',
  'Project key',
  'Project name',
  'Priority',
  'Resolution',
  'Assignee',
  'Assignee Id',
  'Reporter',
  'Created',
  'Updated',
  'Due date',
  'Labels',
  'Labels',
  'Description',
  'Sprint',
  'Sprint',
  'Parent id',
  'Parent summary',
  'Custom field (Story point estimate)',
  'Inward issue link (Blocks)',
  'Outward issue link (Blocks)',
  'Comment',
  'Comment',
]

/** Jira's "Export Excel CSV (all fields)" of the same kind of site, with names for people (the CSV has no emails). */
export function jiraCsvExport(count: number, ownerName: string) {
  const rows: Array<Record<string, string | string[]>> = []
  for (let i = 1; i <= count; i++) {
    const status = JIRA_STATUSES[i % JIRA_STATUSES.length]!
    const epic = i % EPIC_EVERY === 1
    const epicOf = i - ((i - 1) % EPIC_EVERY)
    rows.push({
      Summary: epic ? `Epic ${i}` : `Jira CSV issue ${i}`,
      'Issue key': `OPS-${i}`,
      'Issue id': String(20_000 + i),
      'Issue Type': epic ? 'Epic' : 'Task',
      Status: status.name,
      'Status Category': status.cat === 'new' ? 'To Do' : status.cat === 'done' ? 'Done' : 'In Progress',
      'Project key': 'OPS',
      'Project name': 'Operations',
      Priority: JIRA_PRIORITIES[i % 5]!,
      Resolution: status.resolution ?? '',
      Assignee: i % 5 === 0 ? ownerName : i % 7 === 0 ? 'Someone Unknown' : '',
      Created: '01/Jun/30 10:00 AM',
      'Due date': i % 8 === 0 ? '09/Mar/31 12:00 AM' : '',
      Labels: i % 2 ? ['backend', 'ops'] : [],
      Description: i % 9 === 0 ? `Line one of ${i}\nline "two", quoted` : '',
      Sprint: i % 6 === 0 ? ['OPS Sprint 1'] : [],
      'Parent id':
        !epic && i % 10 === 2
          ? String(20_000 + epicOf)
          : !epic && i % 10 === 3 && (i + 1) % EPIC_EVERY !== 1 && i < count
            ? String(20_001 + i)
            : '',
      'Custom field (Story point estimate)': i % 3 === 0 ? String([1, 2, 3, 5, 8][i % 5]) : '',
      'Inward issue link (Blocks)': i % 12 === 4 && i < count ? [String(20_001 + i)] : [],
      'Outward issue link (Blocks)': i % 12 === 5 ? [`OPS-${i - 1}`] : [],
      Comment:
        i % 4 === 0
          ? [
              '02/Jun/30 2:15 PM;acc-grace;A comment; with a semicolon',
              `03/Jun/30 9:00 AM;acc-owner;Second on ${i}`,
            ]
          : [],
    })
  }
  rows.push({ Summary: 'A second 20003', 'Issue key': 'OPS-3', 'Issue id': '20003', Status: 'To Do' })
  rows.push({ Summary: '', 'Issue key': 'OPS-9001', 'Issue id': '29001', Status: 'To Do' })
  rows.push({
    Summary: 'Bad date',
    'Issue key': 'OPS-9002',
    'Issue id': '29002',
    Status: 'To Do',
    'Due date': 'someday',
  })
  rows.push({ Summary: `Bytes ${NOT_UTF8}`, 'Issue key': 'OPS-9003', 'Issue id': '29003', Status: 'To Do' })
  const { text, lineOf } = csvOf(JIRA_CSV_HEADER, rows)
  const epics = jiraEpics(count).length
  return {
    content: text,
    lineOf,
    rows: rows.length,
    epics,
    tasks: count - epics,
    refused: [count + 1, count + 2, count + 3, count + 4],
  }
}
