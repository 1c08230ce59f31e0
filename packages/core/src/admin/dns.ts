/**
 * Looks up DNS TXT records. Core names only what `domains.verify` needs; the reference server plugs
 * in `node:dns` (`resolveTxt`), tests a fake. Each record comes back as its character strings, which
 * are joined before comparing (a long value may be split into several 255-byte strings).
 */
export interface DnsTxtResolver {
  /** The TXT records at `name`; an empty list (or an `ENOTFOUND`/`ENODATA` rejection) when there are none. */
  resolveTxt(name: string): Promise<string[][]>
}

declare module '../kernel/operation.ts' {
  interface EngineConfig {
    /** Resolves TXT records for `domains.verify` (docs/admin.md); without it every check fails with a reason. */
    dns?: DnsTxtResolver
  }
}

/** The label under the domain where the verification record goes. */
export const VERIFICATION_LABEL = '_workgraph-verification'

/** The outcome of one check: null when the record was found, else why not, in words for the admin. */
export async function checkTxtRecord(
  resolver: DnsTxtResolver | undefined,
  name: string,
  expected: string,
): Promise<string | null> {
  if (!resolver) return 'This server has no DNS resolver configured; ask its operator.'
  let records: string[][]
  try {
    records = await resolver.resolveTxt(name)
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'ENOTFOUND' || code === 'ENODATA') records = []
    else return `The DNS lookup of ${name} failed (${code ?? 'error'}); try again later.`
  }
  const values = records.map((parts) => parts.join(''))
  if (values.includes(expected)) return null
  if (values.length === 0) return `No TXT record was found at ${name}.`
  return `The TXT records at ${name} do not include the expected value.`
}
