import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEBHOOK_OPERATIONS, type WebhookOperationId } from '../src/http-operations';
import { PLAN_NAMES } from '../src/pricing';
import { CreateWebhookBody, WEBHOOK_PLAN_LIMITS, WebhookEvent } from '../src/schemas/webhooks';

const API = readFileSync(join(__dirname, '../../../docs/API.md'), 'utf8');

/** docs/API.md §5's price rows that name a webhook route: [operation, CU]. */
const webhookPriceRows = (): [string, string][] =>
  API.slice(API.indexOf('| Operation | CU |'))
    .split('\n\n')[0]!
    .split('\n')
    .filter((row) => row.includes('webhooks'))
    .map((row) => row.split('|').map((cell) => cell.trim()))
    .map((cells) => [cells[1]!, cells[2]!]);

describe('WEBHOOK_OPERATIONS', () => {
  it.each(Object.keys(WEBHOOK_OPERATIONS) as WebhookOperationId[])('%s: its price is the one docs/API.md §5 states', (id) => {
    const { method, path, price } = WEBHOOK_OPERATIONS[id];
    const route = `${method} ${path.slice(1)}`;
    const row = webhookPriceRows().find(([operation]) => operation.split(/, | \(/).includes(route));
    expect([id, row?.[1]]).toEqual([id, price.kind === 'per_address' ? `${price.cu} per watched address` : `${price.cu}`]);
  });

  it('docs/API.md §8 lists each plan’s webhook limits', () => {
    const row = (name: string) => API.split('\n').find((line) => line.startsWith(`| ${name} |`));
    const list = (pick: (plan: (typeof PLAN_NAMES)[number]) => number) => PLAN_NAMES.map((plan) => `${plan} ${pick(plan)}`).join(', ');
    expect(row('Webhooks per account')).toContain(list((plan) => WEBHOOK_PLAN_LIMITS[plan].webhooks));
    expect(row('Addresses per webhook')).toContain(list((plan) => WEBHOOK_PLAN_LIMITS[plan].addresses));
  });
});

describe('webhook schemas', () => {
  it('bound the addresses of a webhook to 1–100 and its min_change to the score range', () => {
    const body = { url: 'https://example.com/hook', addresses: ['0x52908400098527886E0F7030069857D2E4169EE7'], min_change: 10 };
    expect(CreateWebhookBody.safeParse(body).success).toBe(true);
    expect(CreateWebhookBody.safeParse({ ...body, addresses: [] }).success).toBe(false);
    expect(CreateWebhookBody.safeParse({ ...body, addresses: Array(101).fill(body.addresses[0]) }).success).toBe(false);
    expect(CreateWebhookBody.safeParse({ ...body, addresses: ['vitalik.eth'] }).success).toBe(false);
    expect(CreateWebhookBody.safeParse({ ...body, min_change: 701 }).success).toBe(false);
  });

  it('give an event its type, id, time, sequence and data', () => {
    const event = { type: 'score.changed', id: 'evt_0a1b', created_at: '2026-11-30T00:00:00.000Z', sequence: 1, data: {} };
    expect(WebhookEvent.parse(event)).toEqual(event);
    expect(WebhookEvent.safeParse({ ...event, sequence: 0 }).success).toBe(false);
    expect(WebhookEvent.safeParse({ ...event, id: 'msg_1' }).success).toBe(false);
  });
});
