import type { SettlementOutcome, SettlementQueue } from './settlement-queue';
import type { SignerAssignment } from './signer-assignment';

/**
 * The facilitator's signers, each with its own settlement queue (one transaction at a time, its
 * own nonce sequence): a payment is assigned one signer (SignerAssignment) and settled in that
 * signer's queue only, so settlements per second grow with the signers and no two signers ever
 * send one payment. A signer whose transactions fail fails its own payments, not the others'.
 */
export class SettlementSigners {
  constructor(
    /** By signer (address, lower case): every replica holds the same signers. */
    private readonly queues: ReadonlyMap<string, SettlementQueue>,
    private readonly assignment: Pick<SignerAssignment, 'assign'>,
  ) {}

  get signers(): string[] {
    return [...this.queues.keys()];
  }

  async start(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.start()));
  }

  /** Queues the payment's settlement with its signer (once per payment) and waits for its outcome. */
  async settle(paymentId: string, deadline: number, waitMs: number): Promise<SettlementOutcome> {
    const signer = await this.assignment.assign(paymentId, this.signers);
    const queue = this.queues.get(signer);
    // Never re-assigned: the signer that holds it may have sent it already (another replica's configuration).
    if (queue === undefined) throw new Error(`payment ${paymentId} is assigned to signer ${signer}, which this replica does not hold`);
    return queue.settle(paymentId, deadline, waitMs);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
  }
}
