/** Free ports on loopback, for child processes and the components a test starts (no vitest import: scripts use it too). */
import { type AddressInfo, createServer } from 'node:net'

/** A port free on loopback at the time of asking. */
export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}
