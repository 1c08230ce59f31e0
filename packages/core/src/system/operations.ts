import { Type } from '@sinclair/typebox'
import { defineOperation } from '../kernel/operation.ts'
import { configExample } from './examples.ts'
import { serviceConfig } from './service-config.ts'

export const ServiceConfig = Type.Object(
  {
    version: Type.String({ description: 'The server version.' }),
    apiBaseUrl: Type.String({ format: 'uri' }),
    issuer: Type.String({ format: 'uri', description: 'The issuer of access tokens.' }),
    auth: Type.Object(
      {
        jwksUri: Type.String({ format: 'uri', description: 'Public keys that verify access tokens.' }),
        authorizationServerMetadata: Type.String({ format: 'uri', description: 'RFC 8414 metadata.' }),
        authorizationEndpoint: Type.String({ format: 'uri' }),
        tokenEndpoint: Type.String({ format: 'uri' }),
        registrationEndpoint: Type.String({
          format: 'uri',
          description: 'Dynamic client registration (RFC 7591).',
        }),
        revocationEndpoint: Type.String({ format: 'uri' }),
        scopes: Type.Record(Type.String(), Type.String(), {
          description: 'Every OAuth scope and what it allows.',
        }),
        resources: Type.Array(Type.String({ format: 'uri' }), {
          description: 'Audiences this server accepts in access tokens.',
        }),
      },
      { additionalProperties: false },
    ),
    limits: Type.Object(
      {
        pageSizeDefault: Type.Integer(),
        pageSizeMax: Type.Integer(),
        maxBodyBytes: Type.Integer(),
        rateLimit: Type.Object(
          { limit: Type.Integer(), windowSeconds: Type.Integer() },
          { additionalProperties: false },
        ),
        idempotencyKeyHours: Type.Integer(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'ServiceConfig', additionalProperties: false },
)

export const configOperation = defineOperation({
  id: 'config.get',
  method: 'GET',
  path: '/v1/config',
  tag: 'Service',
  summary: 'Read the service configuration',
  description: 'The only operation that needs no token: version, token issuer, auth endpoints and limits.',
  scope: null,
  response: ServiceConfig,
  status: 200,
  errors: [],
  examples: configExample,
  async run(ctx) {
    return serviceConfig(ctx.config)
  },
})
