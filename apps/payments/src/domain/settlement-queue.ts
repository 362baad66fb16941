import { Queue, QueueEvents, Worker, type ConnectionOptions, type Job } from 'bullmq';

/**
 * How a settlement ended: paid (its own transfer confirmed on chain), or not (the payment is not
 * taken: an answer, not an error); `pending` when it could not be told in time (it may still land).
 */
export type SettlementOutcome =
  { ok: true; transaction: string; network: string; payer: string } | { ok: false; reason: string; message: string; pending?: true };

export interface SettlementQueueOptions {
  connection: ConnectionOptions;
  /** The signer whose settlements this queue sends (its address; `external` for an external facilitator). */
  signer: string;
  /** BullMQ key prefix (the stack's, so side-by-side stacks never share a queue). */
  prefix: string;
  /** A settlement whose worker died is taken over after this long (its lock lapsed). */
  lockMs: number;
  /** Settlements of this signer under way at once, across every replica (their sends still one at a time). */
  inFlight: number;
  warn(message: string): void;
}

const QUEUE = 'x402-settlements';

interface JobData {
  paymentId: string;
  deadline: number;
}
/** An error (a chain unreachable) is retried this often before the settlement is given up. */
const ATTEMPTS = 3;

/**
 * One signer's settlements, from every replica, in one BullMQ queue whose global concurrency is
 * `inFlight`: that many settlements of the signer are under way at once (checked, sent, their
 * receipts awaited side by side), while their transactions go out one at a time in nonce order
 * under the signer's send lock (signer-send-lock.ts). A settlement whose process died is taken
 * over by another worker (or the restarted one), never lost. Jobs are keyed by payment id, so
 * asking twice settles once.
 */
export class SettlementQueue {
  private readonly queue: Queue;
  private readonly events: QueueEvents;
  private worker: Worker | undefined;
  private readonly name: string;

  constructor(
    private readonly options: SettlementQueueOptions,
    /**
     * `deadline`: epoch ms at which the request waiting on it stops waiting; `firstRun`: no worker
     * ran this settlement before (no earlier attempt, none that stalled), so nothing was sent for it.
     */
    private readonly settleOne: (paymentId: string, deadline: number, firstRun: boolean) => Promise<SettlementOutcome>,
  ) {
    this.name = `${QUEUE}-${options.signer.toLowerCase()}`;
    this.queue = new Queue(this.name, { connection: options.connection, prefix: options.prefix });
    this.events = new QueueEvents(this.name, { connection: options.connection, prefix: options.prefix });
    // Every settle request waiting on its job listens on both: as many as the requests in flight.
    this.queue.setMaxListeners(0);
    this.events.setMaxListeners(0);
  }

  async start(): Promise<void> {
    await this.queue.setGlobalConcurrency(this.options.inFlight);
    await this.events.waitUntilReady();
    // BullMQ counts each move to active (a retry, a stalled job taken over): 1 on the first run
    const run = (job: Job<JobData>) => this.settleOne(job.data.paymentId, job.data.deadline, job.attemptsStarted <= 1);
    this.worker = new Worker(this.name, run, {
      connection: this.options.connection,
      prefix: this.options.prefix,
      concurrency: this.options.inFlight,
      lockDuration: this.options.lockMs,
      stalledInterval: this.options.lockMs,
      maxStalledCount: 10,
    });
    this.worker.on('failed', (job, error) =>
      this.options.warn(`settlement ${job?.id ?? '?'} (signer ${this.options.signer}) failed: ${error.message}`),
    );
    this.worker.on('error', (error) => this.options.warn(`settlement worker (signer ${this.options.signer}): ${error.message}`));
    await this.worker.waitUntilReady();
  }

  /** Queues the payment's settlement (once per payment id: the first deadline stands) and waits for its outcome. */
  async settle(paymentId: string, deadline: number, waitMs: number): Promise<SettlementOutcome> {
    const data: JobData = { paymentId, deadline };
    const job = await this.queue.add('settle', data, {
      jobId: paymentId,
      attempts: ATTEMPTS,
      backoff: { type: 'exponential', delay: 500 },
      removeOnComplete: { age: 24 * 3600 },
      removeOnFail: { age: 7 * 24 * 3600 },
    });
    return (await job.waitUntilFinished(this.events, waitMs)) as SettlementOutcome;
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await Promise.allSettled([this.events.close(), this.queue.close()]);
  }
}
