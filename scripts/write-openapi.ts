import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { generateOpenApi, OPERATIONS, TAGS } from '@workgraph/core'

// Writes the OpenAPI document to a file, for linting in CI and for client generators.
const target = process.argv[2] ?? 'openapi.json'
mkdirSync(dirname(target), { recursive: true })
const document = generateOpenApi(OPERATIONS, {
  serverUrl: process.env.BASE_URL ?? 'http://localhost:3000',
  version: '0.1.0',
  tags: TAGS,
})
writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`)
console.log(`wrote ${target}`)
