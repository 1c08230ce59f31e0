import { defineCommand } from 'citty'
import { api } from './commands/api.ts'
import { backup, restore } from './commands/backup.ts'
import { importCommand } from './commands/import.ts'
import { login } from './commands/login.ts'
import { logout } from './commands/logout.ts'
import { migrate } from './commands/migrate.ts'
import { seed } from './commands/seed.ts'
import { stream } from './commands/stream.ts'
import { token } from './commands/token.ts'
import { whoami } from './commands/whoami.ts'

export const main = defineCommand({
  meta: {
    name: 'workgraph',
    version: '0.1.0',
    description:
      'Sign in to a workgraph server, call its API, tail its events, import from other tools, seed demo data, run migrations, back up and restore',
  },
  subCommands: {
    login,
    token,
    api,
    stream,
    whoami,
    logout,
    seed,
    migrate,
    backup,
    restore,
    import: importCommand,
  },
})
