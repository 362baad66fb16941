import { z } from 'zod';
import { EVENTS } from './events';
import { SUBJECTS, SUBJECT_NAMES } from './subjects';
import { ERROR_TABLE, ERROR_CODES } from './errors';
import { HEALTH_SUBJECTS, HEALTH_TIMEOUT_MS, HealthReply } from './health-subjects';

/**
 * docs/SUBJECTS.md, rendered from the contracts: the public interface for internal callers who
 * use NATS directly. `pnpm docs:subjects` writes it; a test fails when the file is stale.
 */
export function renderSubjectCatalogue(): string {
  const lines: string[] = [
    '# NATS subjects',
    '',
    'Generated from `packages/contracts` by `pnpm docs:subjects`; do not edit by hand.',
    '',
    'Internal services may call these subjects directly, without the gateway. Each is a',
    'request/reply subject served by one service in its own queue group, so replicas share the',
    'load. Messages use the packet format of `@nestjs/microservices` over NATS:',
    '',
    '```',
    'request  {"pattern": "<subject>", "data": <request>, "id": "<correlation id>"}',
    'reply    {"id": "<same id>", "response": <reply>, "isDisposed": true}',
    '      or {"id": "<same id>", "err": {"code": "<error code>", "message": "…", "data"?: {…}}, "isDisposed": true}',
    '```',
    '',
    'Headers: `x-request-id` (traced through every hop). Requests are validated by the service',
    'against the schema below; an invalid request gets an error reply with the code the gateway would',
    'answer. Give every request a timeout; the gateway uses the one listed. With no subscriber, NATS',
    'answers "no responders" at once.',
    '',
    '## Error codes',
    '',
    '| code | HTTP status | body shape |',
    '|---|---|---|',
    ...ERROR_CODES.map((code) => `| \`${code}\` | ${ERROR_TABLE[code].status} | ${ERROR_TABLE[code].shape} |`),
    '',
    '## Request / reply subjects',
    '',
    '| subject | queue group | timeout | each attempt (idempotent: asked again) | what |',
    '|---|---|---|---|---|',
    ...SUBJECT_NAMES.map((name) => {
      const def = SUBJECTS[name];
      const attempt = def.attemptTimeoutMs === undefined ? 'once' : `${def.attemptTimeoutMs} ms`;
      return `| \`${name}\` | ${def.service} | ${def.timeoutMs} ms | ${attempt} | ${def.description} |`;
    }),
    '',
  ];
  for (const name of SUBJECT_NAMES) {
    const def = SUBJECTS[name];
    lines.push(`### \`${name}\``, '', def.description, '');
    lines.push('Request:', '', fence(schema(def.request, 'input')), '', 'Reply:', '', fence(schema(def.reply, 'output')), '');
  }
  lines.push(
    '## Health subjects',
    '',
    'Every replica subscribes without a queue group and answers only while it is ready (docs/OPERATIONS.md):',
    `a reply within ${HEALTH_TIMEOUT_MS} ms means one ready replica exists. The request body is ignored.`,
    '',
    '| subject | service |',
    '|---|---|',
    ...Object.entries(HEALTH_SUBJECTS).map(([service, subject]) => `| \`${subject}\` | ${service} |`),
    '',
    'Reply:',
    '',
    fence(schema(HealthReply, 'output')),
    '',
  );
  lines.push('## Broadcast events', '', 'Published without a queue group: every subscriber gets every event.', '');
  for (const event of Object.values(EVENTS)) {
    lines.push(`### \`${event.subject}\``, '', fence(schema(event.payload, 'output')), '');
  }
  return lines.join('\n');
}

function schema(type: z.ZodType, io: 'input' | 'output'): string {
  const json = z.toJSONSchema(type, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return JSON.stringify(json, null, 2);
}

function fence(body: string): string {
  return ['```json', body, '```'].join('\n');
}
