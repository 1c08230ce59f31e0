/**
 * How one kind of item is read: a URL pattern whose named groups fill the API request, and where
 * the fields sit in the JSON answer (dot paths).
 */
export interface ItemDefinition {
  /** What the item is at the provider ("issue", "pull request", "task"). */
  type: string
  /** A regular expression over the whole URL, with named groups (`(?<number>\d+)`). */
  pattern: string
  /** The API URL to GET, with `{group}` placeholders (percent-encoded when filled). */
  request: string
  /** Dot paths into the JSON answer. */
  fields: { title: string; state: string; assignee?: string; updatedAt?: string }
}

/** An OAuth 2.x / OIDC provider as the operator configures it. */
export interface ProviderDefinition {
  /** Stable id used in the API (`github`, `workgraph-acme`). */
  id: string
  name: string
  /**
   * The authorization server: `issuer` is discovered (RFC 8414, or OIDC discovery with
   * `discovery: 'oidc'`); a provider without discovery (GitHub) gives its endpoints in `metadata`.
   */
  issuer: string
  discovery?: 'oauth2' | 'oidc'
  metadata?: {
    authorization_endpoint: string
    token_endpoint: string
    revocation_endpoint?: string
  }
  clientId: string
  /** Confidential clients only (sent as `client_secret_post`); public clients use PKCE alone. */
  clientSecret?: string
  scopes: readonly string[]
  /** RFC 8707 resource indicator sent with the authorization and token requests. */
  resource?: string
  /** A URL read with the connection's token by `connections.test`. */
  testUrl?: string
  items: readonly ItemDefinition[]
  /** Loopback addresses and plain http are allowed: local development and tests only. */
  allowLoopback?: boolean
  /** Redirects to the same origin are followed (a few at most); none are otherwise. */
  allowSameOriginRedirects?: boolean
}

/** An item URL matched to its provider definition, with the API URL to read. */
export interface MatchedItem {
  provider: ProviderDefinition
  item: ItemDefinition
  apiUrl: string
}

/** The first provider item definition whose pattern matches the whole URL, or null. */
export function matchItemUrl(providers: readonly ProviderDefinition[], url: string): MatchedItem | null {
  for (const provider of providers) {
    for (const item of provider.items) {
      const match = new RegExp(`^(?:${item.pattern})$`).exec(url)
      if (!match) continue
      const groups = match.groups ?? {}
      const apiUrl = item.request.replace(/\{(\w+)\}/g, (_m, name: string) =>
        encodeURIComponent(groups[name] ?? ''),
      )
      return { provider, item, apiUrl }
    }
  }
  return null
}

/** The metadata an item definition picks out of a provider's JSON answer. */
export function readItemFields(
  item: ItemDefinition,
  json: unknown,
): { title: string | null; state: string | null; assignee: string | null; updatedAt: string | null } {
  const at = (path: string | undefined): string | null => {
    if (!path) return null
    let value: unknown = json
    for (const key of path.split('.')) {
      if (typeof value !== 'object' || value === null) return null
      value = (value as Record<string, unknown>)[key]
    }
    if (typeof value === 'string') return value.slice(0, 500)
    if (typeof value === 'number' || typeof value === 'boolean') return String(value)
    return null
  }
  const updatedAt = at(item.fields.updatedAt)
  return {
    title: at(item.fields.title),
    state: at(item.fields.state),
    assignee: at(item.fields.assignee),
    updatedAt: updatedAt && !Number.isNaN(Date.parse(updatedAt)) ? new Date(updatedAt).toISOString() : null,
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const ULID = '[0-9A-HJKMNP-TV-Z]{26}'

type Client = Pick<ProviderDefinition, 'clientId' | 'clientSecret'> &
  Partial<Pick<ProviderDefinition, 'id' | 'name' | 'allowLoopback'>>

/**
 * Another workgraph server: tasks by their API URL (by id or by key). Its authorization server is
 * the server itself, discovered with RFC 8414; tokens are asked for its `/v1` resource.
 */
export function workgraphProvider(options: Client & { baseUrl: string }): ProviderDefinition {
  const base = options.baseUrl.replace(/\/+$/, '')
  const task = `${escapeRegExp(base)}/v1/orgs/(?<orgId>org_${ULID})/tasks`
  const fields = { title: 'title', state: 'stateCategory', assignee: 'assigneeId', updatedAt: 'updatedAt' }
  return {
    id: options.id ?? 'workgraph',
    name: options.name ?? `workgraph (${new URL(base).host})`,
    issuer: base,
    clientId: options.clientId,
    ...(options.clientSecret ? { clientSecret: options.clientSecret } : {}),
    scopes: ['work:read', 'offline_access'],
    resource: `${base}/v1`,
    testUrl: `${base}/v1/orgs`,
    ...(options.allowLoopback ? { allowLoopback: true } : {}),
    items: [
      {
        type: 'task',
        pattern: `${task}/(?<taskId>task_${ULID})`,
        request: `${base}/v1/orgs/{orgId}/tasks/{taskId}`,
        fields,
      },
      {
        type: 'task',
        pattern: `${task}/by-key/(?<key>[A-Z][A-Z0-9]{0,6}-[1-9][0-9]*)`,
        request: `${base}/v1/orgs/{orgId}/tasks/by-key/{key}`,
        fields,
      },
    ],
  }
}

/** GitHub issues and pull requests on github.com (an OAuth app; GitHub offers no discovery). */
export function githubProvider(options: Client): ProviderDefinition {
  const repo = 'https://github\\.com/(?<owner>[A-Za-z0-9-]{1,39})/(?<repo>[A-Za-z0-9._-]{1,100})'
  const fields = { title: 'title', state: 'state', assignee: 'assignee.login', updatedAt: 'updated_at' }
  return {
    id: options.id ?? 'github',
    name: options.name ?? 'GitHub',
    issuer: 'https://github.com',
    metadata: {
      authorization_endpoint: 'https://github.com/login/oauth/authorize',
      token_endpoint: 'https://github.com/login/oauth/access_token',
    },
    clientId: options.clientId,
    ...(options.clientSecret ? { clientSecret: options.clientSecret } : {}),
    scopes: ['repo'],
    testUrl: 'https://api.github.com/user',
    items: [
      {
        type: 'issue',
        pattern: `${repo}/issues/(?<number>[1-9][0-9]*)`,
        request: 'https://api.github.com/repos/{owner}/{repo}/issues/{number}',
        fields,
      },
      {
        type: 'pull request',
        pattern: `${repo}/pull/(?<number>[1-9][0-9]*)`,
        request: 'https://api.github.com/repos/{owner}/{repo}/pulls/{number}',
        fields,
      },
    ],
  }
}

/** GitLab issues (gitlab.com or a self-managed instance), discovered with OIDC discovery. */
export function gitlabProvider(options: Client & { baseUrl?: string }): ProviderDefinition {
  const base = (options.baseUrl ?? 'https://gitlab.com').replace(/\/+$/, '')
  return {
    id: options.id ?? 'gitlab',
    name: options.name ?? 'GitLab',
    issuer: base,
    discovery: 'oidc',
    clientId: options.clientId,
    ...(options.clientSecret ? { clientSecret: options.clientSecret } : {}),
    scopes: ['read_api'],
    testUrl: `${base}/api/v4/user`,
    items: [
      {
        type: 'issue',
        pattern: `${escapeRegExp(base)}/(?<project>[A-Za-z0-9._-]+(?:/[A-Za-z0-9._-]+)+)/-/issues/(?<iid>[1-9][0-9]*)`,
        request: `${base}/api/v4/projects/{project}/issues/{iid}`,
        fields: { title: 'title', state: 'state', assignee: 'assignee.username', updatedAt: 'updated_at' },
      },
    ],
  }
}
