export type { RedisRateLimitStore, RedisRateLimitStoreOptions } from './rate-limit-store.ts'
export { createRedisRateLimitStore } from './rate-limit-store.ts'
