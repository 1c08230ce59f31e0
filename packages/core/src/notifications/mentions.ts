/**
 * `@handle` mentions in text. A member's handle is their name in lower case without spaces
 * (`@adalovelace` for "Ada Lovelace"); matching ignores case.
 */
export function mentionedHandles(text: string | null | undefined): Set<string> {
  const handles = new Set<string>()
  if (!text) return handles
  for (const [, handle] of text.matchAll(/(?:^|[^\p{L}\p{N}_@.])@([\p{L}\p{N}_.-]+)/gu)) {
    handles.add(handle!.replace(/[.-]+$/, '').toLowerCase())
  }
  return handles
}

export function handleOf(name: string): string {
  return name.replace(/\s+/g, '').toLowerCase()
}
