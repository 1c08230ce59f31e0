/**
 * Ends a start that cannot work, saying why in one line. Hosts often show only "Connection closed"
 * for a server that exits, so when a host is on the other end (stdin is not a terminal) the line is
 * also the answer to its `initialize` request, which hosts do show; stderr has it for their logs.
 */
export function refuseToStart(reason: string, code = 2): void {
  const line = `workgraph-mcp: ${reason}`
  process.stderr.write(`${line}\n`)
  if (process.stdin.isTTY) process.exit(code)
  let buffered = ''
  const answer = (chunk: Buffer) => {
    buffered += chunk.toString('utf8')
    const end = buffered.indexOf('\n')
    if (end < 0) return
    try {
      const request = JSON.parse(buffered.slice(0, end)) as { id?: string | number }
      if (request.id !== undefined)
        process.stdout.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32603, message: line } })}\n`,
        )
    } catch {}
    process.exit(code)
  }
  process.stdin.on('data', answer)
  process.stdin.on('end', () => process.exit(code))
  // A host that never asks: the process still ends.
  setTimeout(() => process.exit(code), 10_000).unref()
}
