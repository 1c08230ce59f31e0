import { createConsola } from 'consola'

/**
 * Messages for the person go to stderr, so stdout carries only what a script reads
 * (`$(workgraph token)`, `workgraph whoami --json`).
 */
// The level is fixed: consola would drop info lines (the sign-in URL among them) when NODE_ENV=test or in CI.
export const log = createConsola({ level: 3, stdout: process.stderr, stderr: process.stderr })
