import 'reflect-metadata';
import { connect, type NatsConnection } from 'nats';
import { HEALTH_SUBJECTS } from '@credit/contracts/health-subjects';
import { startService, type RunningService } from '@credit/rpc/start-service';
import { NATS_URL, decode, sandboxModule, uniquePrefix, validScore } from './support';
import { freePort } from '@credit/testing/private-nats';

/**
 * A service's readiness, on its probe port and on its health subject (what the gateway's `/ready`
 * asks): answered while every check passes, silent (no reply before the caller's timeout) and 503
 * while one fails, naming it; after a close, "no responders".
 */
const prefix = uniquePrefix();
let storeUp = true;
let service: RunningService;
let nc: NatsConnection;
let healthPort: number;

beforeAll(async () => {
  healthPort = await freePort();
  service = await startService(
    sandboxModule(() => ({ 'credit.sandbox.score.address.v1': (request: { address: string }) => validScore(request.address) })),
    {
      service: 'sandbox',
      natsUrl: NATS_URL,
      subjectPrefix: prefix,
      healthPort,
      silent: true,
      readiness: () => [
        {
          name: 'store',
          check: () => {
            if (!storeUp) throw new Error('the store is away');
          },
        },
      ],
    },
  );
  nc = await connect({ servers: NATS_URL });
});

afterAll(async () => {
  await nc?.close();
  await service?.close();
});

const askHealth = () => nc.request(`${prefix}.${HEALTH_SUBJECTS.sandbox}`, undefined, { timeout: 300 });
const ready = () => fetch(`http://127.0.0.1:${healthPort}/ready`);
/** Past the readiness verdict's reuse (1 s), so the next ask runs the checks again. */
const pastReuse = () => new Promise((resolve) => setTimeout(resolve, 1_100));

it('answers its health subject and /ready while ready, and neither while a check fails', async () => {
  expect(decode((await askHealth()).data)).toEqual({ service: 'sandbox', ready: true });
  expect((await ready()).status).toBe(200);

  storeUp = false;
  await pastReuse();
  await expect(askHealth()).rejects.toMatchObject({ code: 'TIMEOUT' });
  const refused = await ready();
  expect(refused.status).toBe(503);
  expect(await refused.json()).toEqual({ status: 'unavailable', failing: [{ name: 'store', reason: 'the store is away' }] });

  storeUp = true;
  await pastReuse();
  expect(decode((await askHealth()).data)).toEqual({ service: 'sandbox', ready: true });
  expect((await ready()).status).toBe(200);
});

it('after a close, nobody answers the health subject', async () => {
  await service.close();
  await expect(askHealth()).rejects.toMatchObject({ code: '503' });
});
