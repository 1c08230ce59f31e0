import { type Static, type TBoolean, Type } from '@sinclair/typebox'
import { optionalFieldsOf } from '../kernel/body-fields.ts'
import { ID_PREFIXES, type IdBrand, IdSchema } from '../kernel/ids.ts'
import { Name, Nullable, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { NOTIFICATION_KINDS, type NotificationKind } from '../notifications/schemas.ts'
import { OrgRole } from '../orgs/schemas.ts'

const AvatarUrl = Type.String({
  maxLength: 2048,
  pattern: '^https?://',
  format: 'uri',
  description: 'An http(s) URL of the picture shown beside the name.',
})
const TimeZone = Type.String({
  minLength: 1,
  maxLength: 64,
  // The shape of a zone name; which names exist is the server's time zone database (no enum: it
  // changes with each release of it), so a well-formed unknown name is 422 `rule_violated`.
  pattern: '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$',
  description:
    'An IANA time zone name (`Europe/Paris`); stored in its canonical spelling. A name the server does not know is 422 `rule_violated`.',
})
const Locale = Type.String({
  minLength: 2,
  maxLength: 35,
  description:
    'A BCP 47 language tag (`fr-CA`); stored in its canonical form. A tag that is not well-formed BCP 47 is 422 `rule_violated`.',
})

export const Profile = Type.Object(
  {
    id: IdSchema('UserId'),
    email: Type.String({ format: 'email' }),
    name: Name('The name shown in every workspace.'),
    avatarUrl: Nullable(AvatarUrl, 'The picture shown beside the name; null for none.'),
    timeZone: Nullable(TimeZone, 'The IANA time zone; null until set.'),
    locale: Nullable(Locale, 'The BCP 47 language tag; null until set.'),
    createdAt: Timestamp('When the account was created.'),
  },
  { $id: 'Profile', additionalProperties: false, description: 'The person behind the token.' },
)
export type Profile = Static<typeof Profile>

export const Membership = Type.Object(
  {
    orgId: IdSchema('OrgId'),
    orgName: Name('The workspace name.', 120),
    memberId: IdSchema('MemberId'),
    role: OrgRole,
  },
  {
    $id: 'Membership',
    additionalProperties: false,
    description: 'A workspace the person is an active member of.',
  },
)

export const TokenInfo = Type.Object(
  {
    scopes: Type.Array(Type.String(), { description: 'The scopes this request was made with.' }),
    clientId: Nullable(
      Type.String(),
      'The OAuth client the token was issued to; null for a token a host minted.',
    ),
    clientName: Nullable(
      Type.String(),
      "The client's name as the person consented to it; null without a client.",
    ),
    resource: Nullable(Type.String(), 'The resource (audience) the token is for.'),
    expiresAt: Nullable(Type.String({ format: 'date-time' }), 'When the token stops working.'),
  },
  { $id: 'TokenInfo', additionalProperties: false },
)

export const Me = Type.Object(
  {
    user: Profile,
    memberships: Type.Array(Membership, { description: 'Active memberships, by org id.' }),
    token: TokenInfo,
  },
  {
    $id: 'Me',
    additionalProperties: false,
    description: 'Who is calling: the person, their workspaces, the token.',
  },
)

/** The body of `me.update`: the profile's own field schemas (kernel/body-fields.ts), each optional. */
export const ProfilePatch = Type.Object(
  optionalFieldsOf(Profile, {
    name: true,
    avatarUrl: 'null removes the picture.',
    timeZone: 'An IANA time zone name; null clears it.',
    locale: 'A BCP 47 language tag; null clears it.',
  }),
  { $id: 'MeUpdate', additionalProperties: false, minProperties: 1 },
)

/** How notifications reach a person by mail. */
export const NOTIFICATION_DELIVERIES = ['off', 'instant', 'dailyDigest'] as const
export type NotificationDelivery = (typeof NOTIFICATION_DELIVERIES)[number]

export const WEEK_STARTS = ['monday', 'sunday', 'saturday'] as const
export const DATE_FORMATS = ['locale', 'iso', 'dayMonthYear', 'monthDayYear'] as const

const preferenceFields = {
  defaultOrgId: Nullable(
    IdSchema('OrgId'),
    'The workspace apps open first; one of the active memberships, null for none.',
  ),
  weekStart: StringEnum(WEEK_STARTS, { description: 'The first day of the week in calendars.' }),
  dateFormat: StringEnum(DATE_FORMATS, {
    description:
      '`locale` follows the locale; `iso` is 2030-01-13, `dayMonthYear` 13/01/2030, `monthDayYear` 01/13/2030.',
  }),
  notificationDelivery: StringEnum(NOTIFICATION_DELIVERIES, {
    description:
      'How notifications reach the person by mail (docs/mail.md): `off`, `instant` (one mail per notification, within a minute), or `dailyDigest` (one mail a day at `digestHour` in their time zone, with what is still unread). Needs the server to have mail set up (`SMTP_URL`); every mail carries a one-click unsubscribe that sets `off`.',
  }),
  digestHour: Type.Integer({
    minimum: 0,
    maximum: 23,
    description:
      'The hour (0–23) of the daily digest, in the time zone of the profile (`PATCH /v1/me` `timeZone`; UTC when unset).',
  }),
}

/** Which notification kinds go by mail: every kind is on until turned off. */
const mailKindFields = Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, Type.Boolean()])) as Record<
  NotificationKind,
  TBoolean
>
const MAIL_KINDS_DESCRIPTION =
  'Which notification kinds go by mail (instantly or in the digest); a kind turned off still reaches the inbox. A kind off in the workspace notification settings is not created at all, so it is not mailed either.'

export const Preferences = Type.Object(
  {
    ...preferenceFields,
    mailKinds: Type.Object(mailKindFields, {
      additionalProperties: false,
      description: MAIL_KINDS_DESCRIPTION,
    }),
    updatedAt: Nullable(Type.String({ format: 'date-time' }), 'null while all are defaults.'),
  },
  {
    $id: 'Preferences',
    additionalProperties: false,
    description: "The person's settings across workspaces.",
  },
)
export type Preferences = Static<typeof Preferences>

export const PreferencesPatch = Type.Partial(
  Type.Object({
    ...preferenceFields,
    mailKinds: Type.Partial(Type.Object(mailKindFields), {
      additionalProperties: false,
      minProperties: 1,
      description: `${MAIL_KINDS_DESCRIPTION} Only the kinds given change.`,
    }),
  }),
  { additionalProperties: false, minProperties: 1 },
)

export const FAVORITE_TYPES = ['task', 'project', 'milestone', 'cycle', 'label', 'team', 'update'] as const
export type FavoriteType = (typeof FAVORITE_TYPES)[number]

/** The id brand each kind of favorite record carries. */
export const FAVORITE_BRANDS = {
  task: 'TaskId',
  project: 'ProjectId',
  milestone: 'MilestoneId',
  cycle: 'CycleId',
  label: 'LabelId',
  team: 'TeamId',
  update: 'UpdateId',
} as const satisfies Record<FavoriteType, IdBrand>

const favoritePrefix = (type: FavoriteType) => ID_PREFIXES[FAVORITE_BRANDS[type]]

export const FavoriteRecordRef = Type.Object(
  {
    orgId: IdSchema('OrgId'),
    type: StringEnum(FAVORITE_TYPES, { description: 'The kind of record.' }),
    id: Type.String({
      pattern: `^(${FAVORITE_TYPES.map(favoritePrefix).join('|')})_[0-9A-HJKMNP-TV-Z]{26}$`,
      description:
        'The id of the record, of the brand its type implies (`task_…` for a task, `proj_…` for a project, …).',
    }),
  },
  { additionalProperties: false },
)

export const Favorite = Type.Object(
  {
    id: IdSchema('FavoriteId'),
    record: FavoriteRecordRef,
    position: Type.Integer({
      minimum: 0,
      description: 'Order among the person’s favorites, from 0; change it with `me.favorites.move`.',
    }),
    createdAt: Timestamp('When the record was starred.'),
  },
  {
    $id: 'Favorite',
    additionalProperties: false,
    description: 'A record the person starred, in any workspace.',
  },
)
export type Favorite = Static<typeof Favorite>
