// The OpenAPI document's pieces that route files share: the {"data"} request body of chats and messages.
import type { JsonSchema } from '../../openapi/schema.ts';

export { buildOpenApiDocument } from '../../openapi/document.ts';

/**
 * The schema of a {"data": {...}} request body (docs/protocol.md §1.4), for chats, messages and actions: unknown
 * fields are refused, as the validators refuse them. `required` lists the fields a whole resource needs
 * (POST, PUT); PATCH leaves it empty.
 */
export function envelopeSchema(properties: Record<string, unknown>, required: readonly string[] = []): JsonSchema {
  return {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: {
      data: { type: 'object', ...(required.length > 0 ? { required } : {}), additionalProperties: false, properties },
    },
  };
}
