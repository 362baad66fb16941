import type { z } from 'zod';
import { API_PREFIX, WEBHOOK_OPERATIONS, type WebhookOperationId } from '@credit/contracts/http-operations';
import {
  CreatedWebhookReply,
  CreateWebhookBody,
  DeliveriesReply,
  TestWebhookReply,
  WebhookItem,
  WebhooksReply,
} from '@credit/contracts/schemas/webhooks';

type Json = Record<string, unknown>;

interface Tools {
  json(schema: unknown): Json;
  schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json;
  errorResponses: Record<string, Json>;
}

/** Each webhook route's success status and bodies; route, summary and price come from `WEBHOOK_OPERATIONS`. */
const SHAPES: Record<WebhookOperationId, { status: number; reply?: z.ZodType; body?: z.ZodType }> = {
  webhooksCreate: { status: 201, reply: CreatedWebhookReply, body: CreateWebhookBody },
  webhooksList: { status: 200, reply: WebhooksReply },
  webhooksGet: { status: 200, reply: WebhookItem },
  webhooksDelete: { status: 204 },
  webhooksDeliveries: { status: 200, reply: DeliveriesReply },
  webhooksTest: { status: 202, reply: TestWebhookReply },
};

/** The webhook management routes (docs/API.md §4.7) for the OpenAPI document: an API key, like the API. */
export function webhookPaths(tools: Tools): Record<string, Record<string, Json>> {
  const paths: Record<string, Record<string, Json>> = {};
  for (const id of Object.keys(WEBHOOK_OPERATIONS) as WebhookOperationId[]) {
    const { method, path, summary, price } = WEBHOOK_OPERATIONS[id];
    const { status, reply, body } = SHAPES[id];
    const fullPath = `${API_PREFIX}${path}`;
    (paths[fullPath] ??= {})[method.toLowerCase()] = {
      operationId: id,
      tags: ['Webhooks'],
      summary,
      description: `Cost: ${price.kind === 'fixed' ? `${price.cu} CU` : `${price.cu} CU per watched address`}.`,
      security: [{ bearerAuth: [] }],
      'x-credit-units': price,
      parameters: [...fullPath.matchAll(/\{([a-z_]+)\}/g)].map(([, name]) => ({
        name,
        in: 'path',
        required: true,
        schema: { type: 'string' },
      })),
      ...(body ? { requestBody: { required: true, content: tools.json(tools.schemaOf(body, 'input')) } } : {}),
      responses: {
        [String(status)]: { description: 'Success', ...(reply ? { content: tools.json(tools.schemaOf(reply, 'output')) } : {}) },
        ...tools.errorResponses,
      },
    };
  }
  return paths;
}
