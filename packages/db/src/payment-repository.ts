import type { Db } from './prisma-client';
import { rawRows } from './raw-rows';

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

/** The row as it is read: camel-cased; `amount` and `validBefore` as the pool (string) or Prisma (Decimal, bigint) hand them. */
interface PaymentRow extends Omit<PaymentRecord, 'amount' | 'validBefore'> {
  amount: string | { toFixed(digits: number): string };
  validBefore: string | bigint;
}

const COLUMNS = `id, network, x402_version AS "x402Version", payer, pay_to AS "payTo", asset, amount, nonce,
  valid_before AS "validBefore", request_id AS "requestId", operation, cu, status, "transaction", error, payload,
  deadline, created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * The x402 payments ledger (`payments`): one row per accepted payment, moved once from reserved.
 * Its statements go straight through the node-postgres pool (`rawRows`): a settlement reads and
 * writes its row five times, and through Prisma each cost the payments service about twice the CPU
 * (docs/BENCHMARKS.md, "x402"). A move answers the row it moved (`RETURNING`), not a second read.
 */
export class PaymentRepository {
  constructor(private readonly db: Db) {}

  /** Records a payment as reserved; 'duplicate' when its (network, payer, nonce) was recorded before. */
  async reserve(p: NewPayment): Promise<'reserved' | 'duplicate'> {
    const rows = await rawRows<{ id: string }>(
      this.db,
      `INSERT INTO payments (id, network, x402_version, payer, pay_to, asset, amount, nonce, valid_before, request_id,
         operation, cu, payload, deadline)
       VALUES ($1, $2, $3, $4, $5, $6, $7::numeric, $8, $9::int8, $10, $11, $12, $13::jsonb, $14)
       ON CONFLICT (network, payer, nonce) DO NOTHING RETURNING id`,
      [
        p.id,
        p.network,
        p.x402Version,
        p.payer.toLowerCase(),
        p.payTo,
        p.asset,
        p.amount,
        p.nonce.toLowerCase(),
        String(p.validBefore),
        p.requestId,
        p.operation,
        p.cu,
        JSON.stringify(p.payload),
        p.deadline,
      ],
    );
    return rows.length === 1 ? 'reserved' : 'duplicate';
  }

  /**
   * Paid with `transaction` (its own transfer confirmed on chain), its answer not handed over yet:
   * from reserved, or from failed (the chain is the truth: a settlement that landed after it was
   * given up); again with the same transaction, no change. Null when it was paid with another
   * transaction, or is unknown.
   */
  async markPaid(id: string, transaction: string): Promise<PaymentRecord | null> {
    const moved = await this.move(`status = 'unserved', "transaction" = $2, error = NULL`, `status IN ('reserved', 'failed')`, [
      id,
      transaction,
    ]);
    if (moved !== null) return moved;
    const row = await this.find(id);
    return row !== null && (row.status === 'unserved' || row.status === 'settled') && row.transaction === transaction ? row : null;
  }

  /** Its answer handed to the caller: unserved → settled. The row as it stands (null: unknown). */
  async markDelivered(id: string): Promise<PaymentRecord | null> {
    return (await this.move(`status = 'settled'`, `status = 'unserved'`, [id])) ?? this.find(id);
  }

  /** Failed (why), from reserved only; null when it was not reserved. */
  async markFailed(id: string, error: string): Promise<PaymentRecord | null> {
    return this.move(`status = 'failed', error = $2`, `status = 'reserved'`, [id, error.slice(0, 1000)]);
  }

  async find(id: string): Promise<PaymentRecord | null> {
    return this.one(`SELECT ${COLUMNS} FROM payments WHERE id = $1`, [id]);
  }

  /** Reserved payments held until before `date`, the longest lapsed first (the sweep of abandoned reservations). */
  async reservedPast(date: Date, limit: number): Promise<PaymentRecord[]> {
    const rows = await rawRows<PaymentRow>(
      this.db,
      `SELECT ${COLUMNS} FROM payments WHERE status = 'reserved' AND deadline < $1 ORDER BY deadline ASC LIMIT $2`,
      [date, limit],
    );
    return rows.map(recordOf);
  }

  /** The payment of an authorization (its unique key), if one was recorded. */
  async findByNonce(network: string, payer: string, nonce: string): Promise<PaymentRecord | null> {
    return this.one(`SELECT ${COLUMNS} FROM payments WHERE network = $1 AND payer = $2 AND nonce = $3`, [
      network,
      payer.toLowerCase(),
      nonce.toLowerCase(),
    ]);
  }

  /** Newest first; `payer` is matched without regard to case. */
  async list(options: { payer?: string; status?: PaymentStatus; limit?: number } = {}): Promise<PaymentRecord[]> {
    const rows = await rawRows<PaymentRow>(
      this.db,
      `SELECT ${COLUMNS} FROM payments
       WHERE ($1::text IS NULL OR payer = $1) AND ($2::payment_status IS NULL OR status = $2::payment_status)
       ORDER BY created_at DESC, id ASC LIMIT $3`,
      [options.payer?.toLowerCase() ?? null, options.status ?? null, options.limit ?? 100],
    );
    return rows.map(recordOf);
  }

  /** Sets `set` on the row `$1` while `when` holds; the row as moved, or null when it did not move. */
  private move(set: string, when: string, params: readonly unknown[]): Promise<PaymentRecord | null> {
    return this.one(`UPDATE payments SET ${set}, updated_at = now() WHERE id = $1 AND ${when} RETURNING ${COLUMNS}`, params);
  }

  private async one(sql: string, params: readonly unknown[]): Promise<PaymentRecord | null> {
    const [row] = await rawRows<PaymentRow>(this.db, sql, params);
    return row === undefined ? null : recordOf(row);
  }
}

function recordOf(row: PaymentRow): PaymentRecord {
  return {
    ...row,
    amount: typeof row.amount === 'string' ? row.amount : row.amount.toFixed(0),
    validBefore: Number(row.validBefore),
  };
}
