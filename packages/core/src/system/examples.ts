import type { OperationExamples } from '../kernel/operation.ts'
import { serviceConfig } from './service-config.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.

/** A server at work.example.com with the default limits. */
export const configExample: OperationExamples = {
  response: serviceConfig({
    baseUrl: 'https://work.example.com',
    version: '0.1.0',
    maxBodyBytes: 1_048_576,
    rateLimit: { limit: 600, windowSeconds: 60 },
  }),
}
