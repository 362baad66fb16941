import type { PaymentModel as Payment } from './generated/models/Payment';
import type { Db } from './prisma-client';

/**
 * reserved → settled (its own transfer confirmed on chain, its answer handed over) or failed
 * (nothing moved, or the authorization was used another way); unserved: its transfer confirmed,
 * its answer not handed over (yet): a retry of the same payment delivers it, else it is refunded.
 */
export type PaymentStatus = 'reserved' | 'settled' | 'failed' | 'unserved';
export const PAYMENT_STATUSES: readonly PaymentStatus[] = ['reserved', 'settled', 'failed', 'unserved'];

/** A payment as the payments service records it when it accepts one (docs/decisions/0005). */
export interface NewPayment {
  id: string;
  network: string;
  x402Version: number;
  payer: string;
  payTo: string;
  asset: string;
  /** Token atomic units, as a decimal string. */
  amount: string;
  nonce: string;
  /** Unix seconds. */
  validBefore: number;
  requestId: string;
  operation: string;
  cu: number;
  /** What settling it later needs (the payload and the requirement). */
  payload: unknown;
  /** Until then its request may still be waiting on it: the sweep leaves it reserved. */
  deadline: Date;
}

export interface PaymentRecord extends NewPayment {
  status: PaymentStatus;
  transaction: string | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const UNIQUE_VIOLATION = 'P2002';

/** The x402 payments ledger (`payments`): one row per accepted payment, moved once from reserved. */
export class PaymentRepository {
  constructor(private readonly db: Db) {}

  /** Records a payment as reserved; 'duplicate' when its (network, payer, nonce) was recorded before. */
  async reserve(p: NewPayment): Promise<'reserved' | 'duplicate'> {
    try {
      await this.db.payment.create({
        data: {
          id: p.id,
          network: p.network,
          x402Version: p.x402Version,
          payer: p.payer.toLowerCase(),
          payTo: p.payTo,
          asset: p.asset,
          amount: p.amount,
          nonce: p.nonce.toLowerCase(),
          validBefore: BigInt(p.validBefore),
          requestId: p.requestId,
          operation: p.operation,
          cu: p.cu,
          payload: p.payload as object,
          deadline: p.deadline,
        },
      });
      return 'reserved';
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'duplicate';
      throw error;
    }
  }

  /**
   * Paid with `transaction` (its own transfer confirmed on chain), its answer not handed over yet:
   * from reserved, or from failed (the chain is the truth: a settlement that landed after it was
   * given up); again with the same transaction, no change. Null when it was paid with another
   * transaction, or is unknown.
   */
  async markPaid(id: string, transaction: string): Promise<PaymentRecord | null> {
    const moved = await this.db.payment.updateMany({
      where: { id, status: { in: ['reserved', 'failed'] } },
      data: { status: 'unserved', transaction, error: null, updatedAt: new Date() },
    });
    const row = await this.find(id);
    if (moved.count === 1) return row;
    return row !== null && (row.status === 'unserved' || row.status === 'settled') && row.transaction === transaction ? row : null;
  }

  /** Its answer handed to the caller: unserved → settled. The row as it stands (null: unknown). */
  async markDelivered(id: string): Promise<PaymentRecord | null> {
    await this.db.payment.updateMany({ where: { id, status: 'unserved' }, data: { status: 'settled', updatedAt: new Date() } });
    return this.find(id);
  }

  /** Failed (why), from reserved only; null when it was not reserved. */
  async markFailed(id: string, error: string): Promise<PaymentRecord | null> {
    const moved = await this.db.payment.updateMany({
      where: { id, status: 'reserved' },
      data: { status: 'failed', error: error.slice(0, 1000), updatedAt: new Date() },
    });
    return moved.count === 1 ? this.find(id) : null;
  }

  async find(id: string): Promise<PaymentRecord | null> {
    const row = await this.db.payment.findUnique({ where: { id } });
    return row === null ? null : recordOf(row);
  }

  /** Reserved payments held until before `date`, the longest lapsed first (the sweep of abandoned reservations). */
  async reservedPast(date: Date, limit: number): Promise<PaymentRecord[]> {
    const rows = await this.db.payment.findMany({
      where: { status: 'reserved', deadline: { lt: date } },
      orderBy: { deadline: 'asc' },
      take: limit,
    });
    return rows.map(recordOf);
  }

  /** The payment of an authorization (its unique key), if one was recorded. */
  async findByNonce(network: string, payer: string, nonce: string): Promise<PaymentRecord | null> {
    const row = await this.db.payment.findUnique({
      where: { network_payer_nonce: { network, payer: payer.toLowerCase(), nonce: nonce.toLowerCase() } },
    });
    return row === null ? null : recordOf(row);
  }

  /** Newest first; `payer` is matched without regard to case. */
  async list(options: { payer?: string; status?: PaymentStatus; limit?: number } = {}): Promise<PaymentRecord[]> {
    const rows = await this.db.payment.findMany({
      where: {
        ...(options.payer === undefined ? {} : { payer: options.payer.toLowerCase() }),
        ...(options.status === undefined ? {} : { status: options.status }),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      take: options.limit ?? 100,
    });
    return rows.map(recordOf);
  }
}

function recordOf(row: Payment): PaymentRecord {
  return {
    id: row.id,
    network: row.network,
    x402Version: row.x402Version,
    payer: row.payer,
    payTo: row.payTo,
    asset: row.asset,
    amount: row.amount.toFixed(0),
    nonce: row.nonce,
    validBefore: Number(row.validBefore),
    requestId: row.requestId,
    operation: row.operation,
    cu: row.cu,
    payload: row.payload,
    deadline: row.deadline,
    status: row.status,
    transaction: row.transaction,
    error: row.error,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
