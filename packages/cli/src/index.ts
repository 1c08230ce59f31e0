export type { Credentials } from './credentials.ts'
export { configDir, credentialsPath } from './credentials.ts'
export { main } from './main.ts'
