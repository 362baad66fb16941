import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import { DomainError } from '@credit/contracts/errors';
import { redisOptionsFromUrl } from '@credit/config/redis-options';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { SendAccountMail, type AccountMailJob } from './send-account-mail';

/** The queue's name carries its payload's version: a worker never reads a job in a format it does not know. */
const QUEUE = 'account-mail-v1';
/** 2 s doubling over 12 tries: about 2 hours in all before a mail is given up (and logged as such). */
const ATTEMPTS = 12;
const BACKOFF_MS = 2_000;
/** How long a request waits for Redis to take the job before it answers 503. */
const ENQUEUE_TIMEOUT_MS = 2_000;
/** Mails in flight at once on one replica. */
const CONCURRENCY = 4;

/**
 * The dashboard's account mails go out after the answer, from a BullMQ queue in Redis: the request
 * that asks for one (sign-up, forgot password) only names the email, so it does the same work and
 * gives the same answer whether or not the email has an account. The job holds the kind and the
 * email, never a token: the worker makes the link when it sends. A job outlives the gateway that
 * queued it (any replica's worker, or the restarted one, takes it; one whose worker died is taken
 * over when its lock lapses), and a mail the server refuses is retried with backoff, each failure
 * logged, the last one as given up.
 */
@Injectable()
export class MailQueue implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('mail');
  private readonly queue: Queue<AccountMailJob>;
  private worker: Worker<AccountMailJob> | undefined;
  private readonly prefix: string;

  constructor(
    private readonly sendAccountMail: SendAccountMail,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.prefix = config.NATS_SUBJECT_PREFIX ? `${config.NATS_SUBJECT_PREFIX}:dashboard` : 'dashboard';
    this.queue = new Queue<AccountMailJob>(QUEUE, { connection: redisOptionsFromUrl(config.REDIS_URL), prefix: this.prefix });
    this.queue.on('error', (error) => this.logger.warn(`mail queue: ${error.message}`));
  }

  onModuleInit(): void {
    this.worker = new Worker<AccountMailJob>(QUEUE, (job) => this.sendAccountMail.execute(job.data), {
      connection: { ...redisOptionsFromUrl(this.config.REDIS_URL), maxRetriesPerRequest: null },
      prefix: this.prefix,
      concurrency: CONCURRENCY,
    });
    this.worker.on('failed', (job, error) => this.reportFailure(job, error));
    this.worker.on('error', (error) => this.logger.warn(`mail worker: ${error.message}`));
  }

  /** Queues a mail; 503 when Redis does not take it in time (the same for every email). */
  async add(job: AccountMailJob): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ENQUEUE_TIMEOUT_MS);
    });
    try {
      await Promise.race([
        this.queue.add(job.kind, job, {
          // One mail of a kind per email in the interval, however many requests ask (ACCOUNT_MAIL_INTERVAL_SECONDS).
          ...(this.config.ACCOUNT_MAIL_INTERVAL_SECONDS > 0 && {
            deduplication: { id: `${job.kind}:${emailDigest(job.email)}`, ttl: this.config.ACCOUNT_MAIL_INTERVAL_SECONDS * 1000 },
          }),
          attempts: ATTEMPTS,
          backoff: { type: 'exponential', delay: BACKOFF_MS },
          removeOnComplete: true,
          // A mail given up stays a week for the operator to look at, then goes (it names an email).
          removeOnFail: { age: 7 * 24 * 3600 },
        }),
        timeout,
      ]);
    } catch (error) {
      this.logger.warn(`mail not queued: ${(error as Error).message}`);
      throw new DomainError('service_unavailable', 'The dashboard is unavailable; try again shortly');
    } finally {
      clearTimeout(timer);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close().catch((error: unknown) => this.logger.warn(`mail worker close: ${(error as Error).message}`));
    await this.queue.close().catch((error: unknown) => this.logger.warn(`mail queue close: ${(error as Error).message}`));
  }

  private reportFailure(job: Job<AccountMailJob> | undefined, error: Error): void {
    if (job === undefined) return;
    const tries = `try ${job.attemptsMade} of ${job.opts.attempts ?? 1}`;
    if (job.attemptsMade >= (job.opts.attempts ?? 1)) {
      this.logger.error(`${job.data.kind} mail ${job.id} given up after ${tries}: ${error.message}`);
    } else {
      this.logger.warn(`${job.data.kind} mail ${job.id} not sent (${tries}), retrying: ${error.message}`);
    }
  }
}

/** The email as a deduplication id: its digest, so Redis's keys name no address. */
function emailDigest(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
}
