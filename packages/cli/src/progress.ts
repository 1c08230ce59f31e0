/**
 * A one-line progress bar on stderr when it is a terminal; elsewhere (CI, pipes) one line per
 * tenth of the work, so logs stay short. Small enough not to need a dependency.
 */
export interface Progress {
  tick(label: string): void
  done(): void
}

export function progressBar(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  let count = 0
  let lastDecile = -1
  const width = 28
  return {
    tick(label) {
      count += 1
      const ratio = total === 0 ? 1 : count / total
      if (stream.isTTY) {
        const filled = Math.round(ratio * width)
        const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`
        const text = ` ${bar} ${count}/${total} ${label}`
        stream.write(`\r${text.slice(0, (stream.columns ?? 80) - 1).padEnd((stream.columns ?? 80) - 1)}`)
        return
      }
      const decile = Math.floor(ratio * 10)
      if (decile !== lastDecile) {
        lastDecile = decile
        stream.write(`  ${Math.round(ratio * 100)}% (${count}/${total}) ${label}\n`)
      }
    },
    done() {
      if (stream.isTTY) stream.write('\n')
    },
  }
}
