/**
 * What `tools/list` costs a host: the serialized size of the answer (compact, as sent, and
 * pretty-printed), and the largest tools.
 *
 *   npx tsx --conditions=dev-source scripts/mcp-tools-size.ts
 */
import { listTools } from '@workgraph/mcp'

const tools = listTools()
const compact = Buffer.byteLength(JSON.stringify({ tools }))
const pretty = Buffer.byteLength(JSON.stringify({ tools }, null, 2))
console.log(`${tools.length} tools: ${compact} bytes compact, ${pretty} pretty-printed`)
const size = (value: unknown) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)))
const rows = tools
  .map((t) => ({
    name: t.name,
    input: size(t.inputSchema),
    output: size(t.outputSchema),
    text: size(t.description),
  }))
  .sort((a, b) => b.input + b.output - a.input - a.output)
for (const r of rows.slice(0, 15))
  console.log(`  ${r.name.padEnd(26)} input ${r.input}  output ${r.output}  description ${r.text}`)
