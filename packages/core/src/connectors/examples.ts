import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const later = '2030-01-13T16:01:10.000Z'
const repo = 'https://github\\.com/(?<owner>[A-Za-z0-9-]{1,39})/(?<repo>[A-Za-z0-9._-]{1,100})'

/** GitHub as `githubProvider` configures it. */
const github = {
  id: 'github',
  name: 'GitHub',
  issuer: 'https://github.com',
  scopes: ['repo'],
  itemTypes: ['issue', 'pull request'],
  items: [
    { type: 'issue', pattern: `${repo}/issues/(?<number>[1-9][0-9]*)` },
    { type: 'pull request', pattern: `${repo}/pull/(?<number>[1-9][0-9]*)` },
  ],
  enabled: true,
}

export const providerExamples: Record<'list' | 'get' | 'update', OperationExamples> = {
  list: { response: { data: [github], nextCursor: null } },
  get: { response: github },
  // Nobody connects it or reads through it until it is enabled again; existing links keep their URL.
  update: { request: { enabled: false }, response: { ...github, enabled: false } },
}

/** Ada's GitHub connection in Acme. */
export const connectionExample = {
  id: id('conn'),
  orgId: id('org'),
  memberId: id('mem'),
  providerId: 'github',
  status: 'active',
  scopes: ['repo'],
  createdAt: at,
  connectedAt: later,
  lastCheckedAt: null,
  lastError: null,
}

const pending = { ...connectionExample, status: 'pending', scopes: [], connectedAt: null }
const checked = '2030-01-14T08:00:00.000Z'

export const connectionExamples: Record<'list' | 'create' | 'callback' | 'get' | 'test', OperationExamples> =
  {
    list: { response: { data: [connectionExample], nextCursor: null } },
    // Send the browser to `authorizationUrl`; the connection is pending until GitHub redirects back.
    create: {
      request: { providerId: 'github' },
      response: {
        connection: pending,
        authorizationUrl:
          'https://github.com/login/oauth/authorize?response_type=code&client_id=Iv1.8a61f9b3a7aba766&redirect_uri=https%3A%2F%2Fwork.example.com%2Fv1%2Fconnectors%2Fcallback&scope=repo&state=7Qm2xYv9LcT4pWn0bHs8KdRf&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&resource=https%3A%2F%2Fapi.github.com',
      },
    },
    callback: { response: connectionExample },
    get: { response: connectionExample },
    test: {
      response: { ok: true, status: 200, connection: { ...connectionExample, lastCheckedAt: checked } },
    },
  }

const issue = 'https://github.com/acme/web/issues/1290'

/** What linking a GitHub issue would show, read through the caller's connection. */
export const previewExample: OperationExamples = {
  request: { url: issue },
  response: {
    url: issue,
    providerId: 'github',
    connected: true,
    itemType: 'issue',
    title: 'Blank page after signing in again',
    state: 'open',
    assignee: 'ada-l',
    externalUpdatedAt: '2030-01-13T11:42:00.000Z',
    fetchedAt: at,
  },
}

/** Both records that link the issue: ENG-42 and the Launch project. */
export const lookupExample: OperationExamples = {
  response: {
    data: [
      {
        id: id('litm'),
        orgId: id('org'),
        taskId: id('task'),
        projectId: null,
        url: issue,
        providerId: 'github',
        itemType: 'issue',
        title: 'Blank page after signing in again',
        state: 'open',
        assignee: 'ada-l',
        externalUpdatedAt: '2030-01-13T11:42:00.000Z',
        fetchedAt: at,
        creatorId: id('mem'),
        createdAt: at,
      },
      {
        id: id('litm', 1),
        orgId: id('org'),
        taskId: null,
        projectId: id('proj'),
        url: issue,
        providerId: 'github',
        itemType: 'issue',
        title: 'Blank page after signing in again',
        state: 'open',
        assignee: 'ada-l',
        externalUpdatedAt: '2030-01-13T11:42:00.000Z',
        fetchedAt: later,
        creatorId: id('mem', 1),
        createdAt: later,
      },
    ],
    nextCursor: null,
  },
}
