import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { meExamples, preferenceExamples } from '../examples.ts'
import { getPreferences, updatePreferences } from '../preferences.ts'
import { Me, Preferences, PreferencesPatch, ProfilePatch } from '../schemas.ts'
import { updateProfile, whoAmI } from './profile.ts'

export const profileOperations: AnyOperation[] = [
  declareOperation({
    id: 'me.get',
    method: 'GET',
    path: '/v1/me',
    tag: 'Me',
    scope: 'work:read',
    summary: 'Who am I',
    description:
      'The person behind the token, the workspaces they are an active member of with their role in each, and the token itself: its scopes, client and resource.',
    response: Me,
    status: 200,
    errors: [],
    etag: true,
    examples: meExamples.get,
    run: (ctx) => whoAmI(ctx),
  }),
  declareOperation({
    id: 'me.update',
    method: 'PATCH',
    path: '/v1/me',
    tag: 'Me',
    scope: 'work:write',
    summary: 'Update my profile',
    description:
      'Name, avatar URL, time zone and locale. The time zone must be an IANA name and the locale a BCP 47 tag; both are stored in canonical form (`europe/paris` → `Europe/Paris`, `EN-us` → `en-US`). A blank name, a zone the server does not know or a malformed tag is 422 `rule_violated`. The name shows in every workspace. Answers `Me`, as `me.get` does.',
    body: ProfilePatch,
    response: Me,
    status: 200,
    errors: ['rule_violated'],
    examples: meExamples.update,
    run: async (ctx, { body }) => {
      await updateProfile(ctx, body as never)
      return whoAmI(ctx)
    },
  }),
  declareOperation({
    id: 'me.preferences.get',
    method: 'GET',
    path: '/v1/me/preferences',
    tag: 'Me',
    scope: 'work:read',
    summary: 'Get my preferences',
    description:
      'Default workspace, week start, date format and how notifications reach the person by mail (`notificationDelivery`, `digestHour`, `mailKinds`; docs/mail.md), with defaults for what was never set. A default workspace the person has since left reads as null.',
    response: Preferences,
    status: 200,
    errors: [],
    etag: true,
    examples: preferenceExamples.get,
    run: (ctx) => getPreferences(ctx),
  }),
  declareOperation({
    id: 'me.preferences.update',
    method: 'PATCH',
    path: '/v1/me/preferences',
    tag: 'Me',
    scope: 'work:write',
    summary: 'Update my preferences',
    description:
      'Changes the fields sent; in `mailKinds`, only the kinds sent. The default workspace must be one the person is an active member of (422 `reference_not_found` otherwise, as for a workspace that does not exist). `notificationDelivery` takes effect on the next mail pass: `off` stops mail not yet sent, `dailyDigest` sends at the next `digestHour` in the profile time zone.',
    body: PreferencesPatch,
    response: Preferences,
    status: 200,
    errors: ['reference_not_found'],
    precondition: 'me.preferences.get',
    examples: preferenceExamples.update,
    run: (ctx, { body }) => updatePreferences(ctx, body as never),
  }),
]
