import { randomUUID } from 'node:crypto';
import { Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { redactUrlToHost } from '@credit/config/redact-url';
import { redisOptionsFromUrl } from '@credit/config/redis-options';
import { PaymentRepository } from '@credit/db/payment-repository';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import type { ReadinessCheck } from '@credit/observability/readiness';
import type { PaymentsConfig } from './config';
import { AnswerStore } from './domain/answer-store';
import { facilitatorSigners } from './domain/facilitator-signers';
import { NonceGuard } from './domain/nonce-guard';
import { paymentChain } from './domain/payment-chain';
import { FoundReceipts } from './domain/receipt-wait';
import { SettlementQueue } from './domain/settlement-queue';
import { SettlementSigners } from './domain/settlement-signers';
import { SignerAssignment } from './domain/signer-assignment';
import { redisSendLocks, SEND_LEASE_MS } from './domain/signer-send-lock';
import { PaymentsHandlers } from './payments-handlers';
import { PAYMENTS_DEPS, type PaymentsDeps } from './use-cases/payments-deps';
import { settleOne } from './use-cases/settle-one';
import { sweepAbandoned } from './use-cases/sweep-abandoned';

/** The Redis commands of the nonce guard fail fast: a payment is refused (503), never served unguarded. */
const REDIS_COMMAND_TIMEOUT_MS = 2_000;

/**
 * The payments service's connections (Redis, Postgres, the facilitator's chains), its settlement
 * queue and the sweep of expired reservations; closed with the application.
 */
export class PaymentsResources implements OnApplicationShutdown {
  private sweepTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly redis: Redis,
    private readonly db: Db,
    private readonly settlements: SettlementSigners,
    readonly deps: PaymentsDeps,
  ) {}

  /** Redis (the nonce guard: without it every payment is refused) and Postgres (the payment records) answer. */
  readinessChecks(): ReadinessCheck[] {
    return [
      { name: 'redis', check: async () => void (await this.redis.ping()) },
      { name: 'postgres', check: async () => void (await this.db.$queryRaw`SELECT 1`) },
    ];
  }

  static async open(config: PaymentsConfig): Promise<PaymentsResources> {
    const logger = new Logger('payments');
    const warn = (message: string) => logger.warn(message);
    const redis = new Redis({
      ...redisOptionsFromUrl(config.REDIS_URL),
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 1,
    });
    const db = createPrismaClient(config.DATABASE_URL, { maxConnections: 4, applicationName: 'credit-payments' });
    // a settlement's receipt, found by its signer's wait, is what the check of its transfer reads
    const receipts = new FoundReceipts();
    const prefix = config.NATS_SUBJECT_PREFIX;
    const signers = facilitatorSigners(config.x402.networks, {
      ...(config.X402_FACILITATOR_URL !== undefined ? { url: config.X402_FACILITATOR_URL } : {}),
      keys: config.facilitatorKeys,
      rpcTimeoutMs: config.X402_RPC_TIMEOUT_MS,
      confirmationTimeoutMs: config.SETTLEMENT_TIMEOUT_MS,
      receipts,
      sendLocks: redisSendLocks(redis, prefix, { leaseMs: SEND_LEASE_MS, waitMs: config.SETTLEMENT_TIMEOUT_MS }),
    });
    const queueOptions = {
      connection: { ...redisOptionsFromUrl(config.REDIS_URL), maxRetriesPerRequest: null },
      prefix: prefix ? `${prefix}:x402` : 'x402',
      lockMs: config.SETTLEMENT_TIMEOUT_MS * 2,
      inFlight: config.X402_SETTLEMENTS_PER_SIGNER,
      warn,
    };
    // One queue per signer; the workers start (settlements.start) once deps exist.
    const queues = signers.map(
      ({ name, facilitator }) =>
        [
          name,
          new SettlementQueue({ ...queueOptions, signer: name }, (paymentId, deadline, firstRun) =>
            settleOne(paymentId, deadline, deps, facilitator, firstRun),
          ),
        ] as const,
    );
    const settlements = new SettlementSigners(new Map(queues), new SignerAssignment(redis, prefix));
    const deps: PaymentsDeps = {
      facilitator: signers[0]!.facilitator,
      chain: paymentChain(config.x402.networks, {
        rpcTimeoutMs: config.X402_RPC_TIMEOUT_MS,
        confirmationTimeoutMs: config.SETTLEMENT_TIMEOUT_MS,
        receipts,
      }),
      nonces: new NonceGuard(redis, prefix),
      answers: new AnswerStore(redis, prefix, config.X402_ANSWER_TTL_S),
      ledger: new PaymentRepository(db),
      settlements,
      settings: config.x402,
      settleWaitMs: config.SETTLEMENT_TIMEOUT_MS * 2,
      newId: randomUUID,
      now: () => new Date(),
      warn,
    };
    await settlements.start();
    const networks = config.x402.networks.filter((n) => n.rpcUrl !== undefined);
    logger.log(
      `x402: paying to ${config.x402.payTo}; ${config.X402_FACILITATOR_URL ? `facilitator ${redactUrlToHost(config.X402_FACILITATOR_URL)}` : `self-hosted facilitator, ${signers.length} signer(s) ${signers.map((s) => s.name).join(', ')}`} on ${networks.map((n) => n.network).join(', ')}`,
    );
    const resources = new PaymentsResources(redis, db, settlements, deps);
    resources.sweepTimer = setInterval(() => {
      sweepAbandoned(deps).catch((error: unknown) => warn(`sweep of abandoned payments: ${(error as Error).message}`));
    }, config.PAYMENT_SWEEP_MS);
    resources.sweepTimer.unref();
    return resources;
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweepTimer);
    await this.settlements.close();
    await Promise.allSettled([this.redis.quit(), this.db.$disconnect()]);
  }
}

/** The payments service: x402 verification, nonce reservation, settlement and the payments ledger. */
@Module({})
export class PaymentsModule {
  static forRoot(config: PaymentsConfig): DynamicModule {
    return {
      module: PaymentsModule,
      providers: [
        PaymentsHandlers,
        { provide: PaymentsResources, useFactory: () => PaymentsResources.open(config) },
        { provide: PAYMENTS_DEPS, useFactory: (resources: PaymentsResources) => resources.deps, inject: [PaymentsResources] },
      ],
    };
  }
}
