// Architecture checks run in CI (`pnpm check:deps`): no import cycles, a kernel that imports no
// resource group, groups that only import the groups below them, and no host or driver in core.
// Type-only imports count: a cycle of types is still a cycle a reader has to untangle.

/** Core's resource groups, lowest first: a group may import the kernel and the groups before it. */
const GROUPS = [
  'system',
  'users',
  'oauth',
  'orgs',
  'teams',
  'access',
  'labels',
  'fields',
  'tasks',
  'cycles',
  'triage',
  'projects',
  'updates',
  'links',
  'initiatives',
  'documents',
  'programs',
  'comments',
  'attachments',
  'agents',
  'plans',
  'connectors',
  'notifications',
  'views',
  'rules',
  'me',
  'time',
  'streams',
  // Read across many groups below them; nothing imports them.
  'templates',
  'transfers',
  'insights',
  'hub',
  // Mail delivery of notifications (outbox, digests, unsubscribing) reads notifications, preferences
  // and away status; only the composition files (engine, storage, index) import it.
  'mail',
]
// Not layered: `admin` and `access` import each other (org settings and the permission checks they
// drive); file cycles are still refused by `no-circular`.
const core = 'packages/core/src'
// The Kysely adapter mirrors core's folders and is layered the same way (its `fields` is not layered
// either; `kernel` and the files at its root are shared helpers every folder may import).
const kysely = 'adapters/kysely/src'

const layeringOf = (root, prefix) =>
  GROUPS.map((group, i) => ({
    name: `${prefix}-layering-${group}`,
    comment: `${root}/${group} may import only the kernel, shared files and the groups below it (${GROUPS.slice(0, i).join(', ') || 'none'}).`,
    severity: 'error',
    from: { path: `^${root}/${group}/` },
    to: { path: `^${root}/(${GROUPS.slice(i + 1).join('|') || '$^'})/` },
  }))
const layering = [...layeringOf(core, 'group'), ...layeringOf(kysely, 'kysely')]

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Import cycles make modules impossible to read or load in isolation.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'kernel-imports-no-group',
      comment: 'The kernel (pipeline, ids, problems, permissions, events, OpenAPI) knows no resource group.',
      severity: 'error',
      from: { path: `^${core}/kernel/` },
      to: { path: `^${core}/`, pathNot: `^${core}/kernel/` },
    },
    {
      name: 'groups-do-not-import-the-composition',
      comment: 'catalogue.ts, engine.ts, storage.ts and index.ts assemble the groups; no group imports them.',
      severity: 'error',
      from: { path: `^${core}/[^/]+/` },
      to: { path: `^${core}/[^/]+\\.ts$` },
    },
    ...layering,
    {
      name: 'kysely-kernel-imports-no-group',
      comment: "The adapter's kernel (events, idempotency, locks, reader positions) knows no resource group.",
      severity: 'error',
      from: { path: `^${kysely}/kernel/` },
      to: { path: `^${kysely}/[^/]+/`, pathNot: `^${kysely}/(kernel|migrations|driver)/` },
    },
    {
      name: 'kysely-driver-imports-no-group',
      comment:
        "How the adapter talks to its drivers (statements prepared once, held writes, raw rows, the WAL's checkpoints) knows no resource group and no kernel.",
      severity: 'error',
      from: { path: `^${kysely}/driver/` },
      to: { path: `^${kysely}/[^/]+/`, pathNot: `^${kysely}/driver/` },
    },
    {
      name: 'kysely-groups-do-not-import-the-composition',
      comment:
        'storage.ts, purge.ts and index.ts assemble the groups (every purge is handed in); no group imports them.',
      severity: 'error',
      from: { path: `^${kysely}/[^/]+/` },
      to: { path: `^${kysely}/(storage|purge|index)\\.ts$` },
    },
    {
      name: 'core-no-host-or-driver',
      comment: 'Core runs anywhere: no HTTP host, database driver or MCP SDK.',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: {
        dependencyTypes: [
          'npm',
          'npm-dev',
          'npm-optional',
          'npm-peer',
          'npm-no-pkg',
          'npm-unknown',
          'unknown',
          'core',
        ],
        // Resolved into node_modules, or unresolved (a package core does not even declare).
        path: '(^|/)node_modules/(h3|listhen|pg|better-sqlite3|kysely|@modelcontextprotocol/sdk)/|^(h3|listhen|pg|better-sqlite3|kysely|@modelcontextprotocol/sdk)(/|$)|^(node:)?(http|https|http2|net)$',
      },
    },
    {
      name: 'h3-no-storage-driver',
      comment: 'The h3 adapter serves an engine; wiring storage is the server package’s job.',
      severity: 'error',
      from: { path: '^adapters/h3/' },
      to: { path: '(^|/)node_modules/(pg|better-sqlite3|kysely)/|^adapters/kysely/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { conditionNames: ['dev-source', 'import', 'node', 'default'] },
    exclude: { path: '(^|/)(dist|node_modules)/' },
  },
}
