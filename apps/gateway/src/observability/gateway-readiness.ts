import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { NatsConnection } from 'nats';
import { HEALTH_SUBJECTS, HEALTH_TIMEOUT_MS } from '@credit/contracts/health-subjects';
import { HTTP_OPERATIONS, OPERATION_IDS } from '@credit/contracts/http-operations';
import { SUBJECTS, type ServiceName } from '@credit/contracts/subjects';
import type { Db } from '@credit/db/prisma-client';
import { Readiness, withTimeout } from '@credit/observability/readiness';
import { prefixed } from '@credit/rpc/subject-prefix';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { DB } from '../db/db.providers';
import { METER_REDIS } from '../metering/meter.providers';
import { Metering } from '../metering/metering';
import { X402Payments } from '../payments/x402-payments';
import { NATS_CONNECTION } from '../rpc/nats.providers';

/** The services the operation routes forward to (both variants), and payments when x402 is on. */
export function forwardedServices(x402: boolean): ServiceName[] {
  const services = new Set<ServiceName>();
  for (const id of OPERATION_IDS)
    for (const subject of Object.values(HTTP_OPERATIONS[id].subjects)) services.add(SUBJECTS[subject].service);
  if (x402) services.add('payments');
  return [...services].sort();
}

/**
 * What the gateway needs to answer correctly now (its `/ready`): NATS (a round trip), Postgres
 * (key lookups), the metering's Redis when metering is on (it fails closed without it), and one
 * ready replica of every service it forwards to: each is asked on its health subject, where only
 * ready replicas answer, within `HEALTH_TIMEOUT_MS`.
 */
@Injectable()
export class GatewayReadiness {
  readonly readiness = new Readiness();

  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    @Inject(DB) db: Db,
    @Inject(METER_REDIS) redis: Redis,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    metering: Metering,
    x402: X402Payments,
  ) {
    this.readiness.add(
      { name: 'nats', check: () => withTimeout(nc.flush(), 1_000, 'no PONG from the NATS server within 1000 ms') },
      { name: 'postgres', check: async () => void (await db.$queryRaw`SELECT 1`) },
    );
    if (metering.enabled) this.readiness.add({ name: 'redis', check: async () => void (await redis.ping()) });
    for (const service of forwardedServices(x402.enabled)) {
      this.readiness.add({
        name: service,
        check: async () => {
          const subject = prefixed(config.NATS_SUBJECT_PREFIX, HEALTH_SUBJECTS[service]);
          await nc.request(subject, undefined, { timeout: HEALTH_TIMEOUT_MS }).catch(() => {
            throw new Error(`no ready ${service} replica answered within ${HEALTH_TIMEOUT_MS} ms`);
          });
        },
      });
    }
  }
}
