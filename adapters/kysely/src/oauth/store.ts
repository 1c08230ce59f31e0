import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { oauthRepo } from './oauth.ts'

/** The OAuth server's clients, consents, codes, tokens and web sessions. */
export const oauthStore = (db: Kysely<Database>) =>
  ({
    oauth: oauthRepo(db),
  }) satisfies Partial<Store>
