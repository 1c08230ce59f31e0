import {
  DATE_FORMATS,
  type Engine,
  isProblem,
  NOTIFICATION_DELIVERIES,
  NOTIFICATION_KINDS,
  type OAuthServer,
  type Preferences,
  type Profile,
  type UserId,
  WEEK_STARTS,
} from '@workgraph/core'
import type { H3 } from 'h3'
import { readSessionCookie, sameOrigin } from '../oauth/web-session.ts'
import { errorPage, escapeHtml, hidden, page, readForm, seeOther } from './html.ts'

const SETTINGS = '/settings'
const SECTIONS = [
  ['profile', 'Profile'],
  ['preferences', 'Preferences'],
  ['notifications', 'Notifications'],
  ['sessions', 'Web sessions'],
  ['connected-apps', 'Connected apps'],
] as const
type Section = Exclude<(typeof SECTIONS)[number][0], 'connected-apps'>

const HOURS = Array.from({ length: 24 }, (_, h) => [String(h), `${String(h).padStart(2, '0')}:00`] as const)

const LABELS: Record<string, string> = {
  off: 'Off',
  instant: 'At once',
  dailyDigest: 'In a daily digest',
  monday: 'Monday',
  sunday: 'Sunday',
  saturday: 'Saturday',
  locale: 'As my language does',
  iso: '2030-01-13',
  dayMonthYear: '13/01/2030',
  monthDayYear: '01/13/2030',
}

interface Org {
  id: string
  name: string
}
interface WebSession {
  id: string
  userAgent: string | null
  createdAt: string
  expiresAt: string
}

const field = (id: string, label: string, value: string | null, attrs: string) =>
  `<label for="${id}">${label}</label><input id="${id}" name="${id}" value="${escapeHtml(value ?? '')}" ${attrs}>`

const select = (id: string, label: string, options: readonly (readonly [string, string])[], value: string) =>
  `<label for="${id}">${label}</label><select id="${id}" name="${id}">${options
    .map(
      ([v, text]) =>
        `<option value="${escapeHtml(v)}"${v === value ? ' selected' : ''}>${escapeHtml(text)}</option>`,
    )
    .join('')}</select>`

/** The links between the settings pages, the current one marked. */
export const settingsNav = (current: string) =>
  `<nav aria-label="Settings"><p>${SECTIONS.map(([slug, name]) =>
    slug === current
      ? `<strong aria-current="page">${name}</strong>`
      : `<a href="${SETTINGS}/${slug}">${name}</a>`,
  ).join(' · ')}</p></nav>`

/** `notificationKind` → `Notification kind`, for checkbox labels. */
const sentence = (kind: string) => {
  const words = kind.replace(/([A-Z])/g, ' $1').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * The account settings beside Connected apps: profile, preferences, notification settings per
 * workspace, and web sessions. Server-rendered forms without scripts, under the pages' CSP; every
 * change goes through the operations the API offers (`me.update`, `me.preferences.update`,
 * `notificationSettings.update`, `me.sessions.revoke`), as the signed-in person.
 */
export function registerSettingsPages(app: H3, engine: Engine, oauth: OAuthServer): void {
  // The pages act for the signed-in person as the first-party app they are: no client id.
  const asPerson = (userId: UserId) => ({ userId, scopes: new Set(['work:read', 'work:write']) })
  const run = async (id: string, input: object, userId: UserId) =>
    (await engine.execute(id, input, asPerson(userId))).body
  const formToken = (sessionHash: string, action: string) =>
    oauth.consentToken(sessionHash, new URLSearchParams({ settings: action }))
  const signedIn = (request: Request) => oauth.accounts.fromCookie(readSessionCookie(request, oauth.issuer))
  const signIn = (section: Section) =>
    seeOther(`/sign-in?return_to=${encodeURIComponent(`${SETTINGS}/${section}`)}`)

  const notice = (n?: { error?: string; done?: string }) =>
    n?.error
      ? `<p class="error" role="alert">${escapeHtml(n.error)}</p>`
      : n?.done
        ? `<p class="warn" role="status">${escapeHtml(n.done)}</p>`
        : ''

  type Who = NonNullable<Awaited<ReturnType<typeof signedIn>>>
  const RENDER: Record<Section, (who: Who) => Promise<[string, string]>> = {
    async profile(who) {
      const me = (await run('me.get', {}, who.user.id)) as { user: Profile }
      const p = me.user
      return [
        'Profile',
        `<form method="post" action="${SETTINGS}/profile">${hidden('csrf', await formToken(who.session.tokenHash, 'profile'))}
<p>Email: ${escapeHtml(p.email)}</p>
${field('name', 'Name', p.name, 'type="text" required maxlength="200"')}
${field('avatarUrl', 'Picture URL', p.avatarUrl, 'type="text" maxlength="2048" placeholder="https://…"')}
${field('timeZone', 'Time zone', p.timeZone, 'type="text" maxlength="64" placeholder="Europe/Paris"')}
${field('locale', 'Language', p.locale, 'type="text" maxlength="35" placeholder="en-GB"')}
<button type="submit">Save the profile</button></form>`,
      ]
    },
    async preferences(who) {
      const prefs = (await run('me.preferences.get', {}, who.user.id)) as Preferences
      const orgs = ((await run('orgs.list', { query: { limit: 100 } }, who.user.id)) as { data: Org[] }).data
      const pairs = (values: readonly string[]) => values.map((v) => [v, LABELS[v] ?? v] as const)
      return [
        'Preferences',
        `<form method="post" action="${SETTINGS}/preferences">${hidden('csrf', await formToken(who.session.tokenHash, 'preferences'))}
${select('defaultOrgId', 'Default workspace', [['', 'None'], ...orgs.map((o) => [o.id, o.name] as const)], prefs.defaultOrgId ?? '')}
${select('weekStart', 'Week starts on', pairs(WEEK_STARTS), prefs.weekStart)}
${select('dateFormat', 'Dates', pairs(DATE_FORMATS), prefs.dateFormat)}
${select('notificationDelivery', 'Notifications by mail', pairs(NOTIFICATION_DELIVERIES), prefs.notificationDelivery)}
${select('digestHour', 'Daily digest at (your time zone)', HOURS, String(prefs.digestHour))}
<button type="submit">Save the preferences</button></form>`,
      ]
    },
    async notifications(who) {
      const orgs = ((await run('orgs.list', { query: { limit: 100 } }, who.user.id)) as { data: Org[] }).data
      const csrf = await formToken(who.session.tokenHash, 'notifications')
      const forms = await Promise.all(
        orgs.map(async (org) => {
          const settings = (await run(
            'notificationSettings.get',
            { params: { orgId: org.id } },
            who.user.id,
          )) as { kinds: Record<string, boolean> }
          const boxes = NOTIFICATION_KINDS.map(
            (kind) =>
              `<label><input type="checkbox" name="kind" value="${kind}"${settings.kinds[kind] ? ' checked' : ''}> ${escapeHtml(sentence(kind))}</label>`,
          ).join('')
          return `<form method="post" action="${SETTINGS}/notifications">${hidden('csrf', csrf)}${hidden('orgId', org.id)}
<fieldset><legend>${escapeHtml(org.name)}</legend>${boxes}</fieldset>
<button type="submit" aria-label="Save notifications for ${escapeHtml(org.name)}">Save</button></form>`
        }),
      )
      return [
        'Notifications',
        orgs.length
          ? `<p>What you are notified about, per workspace. Checked kinds are on.</p>${forms.join('')}`
          : '<p>You are in no workspace yet.</p>',
      ]
    },
    async sessions(who) {
      const { data } = (await run('me.sessions.list', {}, who.user.id)) as { data: WebSession[] }
      const csrf = await formToken(who.session.tokenHash, 'sessions')
      const rows = data
        .map((s) => {
          const here = s.id === who.session.id
          return `<tr><td>${escapeHtml(s.userAgent ?? 'Unknown browser')}${here ? ' <strong>(this browser)</strong>' : ''}</td>
<td>${escapeHtml(s.createdAt.slice(0, 16).replace('T', ' '))}</td><td>${escapeHtml(s.expiresAt.slice(0, 10))}</td>
<td><form method="post" action="${SETTINGS}/sessions">${hidden('csrf', csrf)}${hidden('id', s.id)}
<button type="submit" aria-label="${here ? 'Sign this browser out' : `Sign out session from ${escapeHtml(s.createdAt.slice(0, 16).replace('T', ' '))}`}">Sign out</button></form></td></tr>`
        })
        .join('')
      return [
        'Web sessions',
        `<p>The browsers signed in to your account.</p>
<table><thead><tr><th>Browser</th><th>Signed in</th><th>Until</th><th></th></tr></thead><tbody>${rows}</tbody></table>`,
      ]
    },
  }

  async function render(request: Request, section: Section, n?: { error?: string; done?: string }) {
    const who = await signedIn(request)
    if (!who) return signIn(section)
    const [title, body] = await RENDER[section](who)
    return page(
      title,
      `<h1>${escapeHtml(title)}</h1>${settingsNav(section)}${notice(n)}${body}
<form method="post" action="/sign-out"><button type="submit">Sign out</button></form>`,
    )
  }

  /** A form post from this site, by the signed-in person, with the section's token; else a refusal. */
  async function accepted(
    request: Request,
    section: Section,
  ): Promise<{ refusal: Response } | { form: URLSearchParams; who: Who }> {
    if (!sameOrigin(request, oauth.issuer, true))
      return { refusal: errorPage('Refused', 'This form must be sent from this site.', 403) }
    const form = await readForm(request)
    const who = await signedIn(request)
    if (!who) return { refusal: signIn(section) }
    if (!form || form.get('csrf') !== (await formToken(who.session.tokenHash, section)))
      return { refusal: errorPage('Refused', 'Reload the page and try again.', 403) }
    return { form, who }
  }

  const optional = (value: string | null) => (value?.trim() ? value.trim() : null)

  const CHANGE: Record<Section, (form: URLSearchParams, who: Who) => Promise<string>> = {
    async profile(form, who) {
      await run(
        'me.update',
        {
          body: {
            name: (form.get('name') ?? '').trim(),
            avatarUrl: optional(form.get('avatarUrl')),
            timeZone: optional(form.get('timeZone')),
            locale: optional(form.get('locale')),
          },
        },
        who.user.id,
      )
      return 'Your profile is saved.'
    },
    async preferences(form, who) {
      await run(
        'me.preferences.update',
        {
          body: {
            defaultOrgId: optional(form.get('defaultOrgId')),
            weekStart: form.get('weekStart') ?? '',
            dateFormat: form.get('dateFormat') ?? '',
            notificationDelivery: form.get('notificationDelivery') ?? '',
            digestHour: Number(form.get('digestHour') ?? ''),
          },
        },
        who.user.id,
      )
      return 'Your preferences are saved.'
    },
    async notifications(form, who) {
      const on = new Set(form.getAll('kind'))
      const orgId = form.get('orgId') ?? ''
      await run(
        'notificationSettings.update',
        {
          params: { orgId },
          body: { kinds: Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, on.has(k)])) },
        },
        who.user.id,
      )
      return 'Your notification settings are saved.'
    },
    async sessions(form, who) {
      await run('me.sessions.revoke', { params: { sessionId: form.get('id') ?? '' } }, who.user.id)
      return 'That browser is signed out.'
    },
  }

  app.get(SETTINGS, () => seeOther(`${SETTINGS}/profile`))
  for (const section of Object.keys(RENDER) as Section[]) {
    app.get(`${SETTINGS}/${section}`, (event) => render(event.req, section))
    app.post(`${SETTINGS}/${section}`, async (event) => {
      const checked = await accepted(event.req, section)
      if ('refusal' in checked) return checked.refusal
      try {
        const done = await CHANGE[section](checked.form, checked.who)
        // Signing this browser out ends the session the page was shown in.
        if (section === 'sessions' && checked.form.get('id') === checked.who.session.id)
          return signIn(section)
        return render(event.req, section, { done })
      } catch (error) {
        if (!isProblem(error)) throw error
        // Field errors name the form field: `/body/timeZone` → timeZone.
        const fields = (error.errors ?? []).map((e) => `${e.pointer.split('/').at(-1)}: ${e.message}`)
        return render(event.req, section, { error: [error.message, ...fields].join(' ') })
      }
    })
  }
}
