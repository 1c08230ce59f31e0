import { checkTxtRecord, type DnsTxtResolver } from '@workgraph/core'
import { describe, expect, it } from 'vitest'

const failing = (code: string): DnsTxtResolver => ({
  resolveTxt: () => Promise.reject(Object.assign(new Error(code), { code })),
})

describe('domain verification lookups', () => {
  const name = '_workgraph-verification.example.com'
  it('finds the value among the records, joining split strings', async () => {
    const dns: DnsTxtResolver = {
      resolveTxt: async () => [['v=spf1 -all'], ['workgraph-', 'verification=abc']],
    }
    expect(await checkTxtRecord(dns, name, 'workgraph-verification=abc')).toBeNull()
    expect(await checkTxtRecord(dns, name, 'workgraph-verification=abd')).toMatch(/do not include/)
  })
  it('answers a reason for every failure instead of throwing', async () => {
    expect(await checkTxtRecord(undefined, name, 'x')).toMatch(/no DNS resolver/)
    expect(await checkTxtRecord(failing('ENOTFOUND'), name, 'x')).toMatch(/No TXT record/)
    expect(await checkTxtRecord(failing('ENODATA'), name, 'x')).toMatch(/No TXT record/)
    expect(await checkTxtRecord(failing('ETIMEOUT'), name, 'x')).toMatch(/ETIMEOUT/)
    expect(await checkTxtRecord({ resolveTxt: async () => [] }, name, 'x')).toMatch(/No TXT record/)
  })
})
