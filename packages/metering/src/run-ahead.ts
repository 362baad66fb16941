import { BUCKETS_KEPT, sweep } from './bucket-sweep';

/** How long the last answer for a bucket is trusted to let a read run ahead of its admission. */
const OUTLOOK_MS = 1_000;

/**
 * What the last answer for a bucket left (tokens, and the account's CU; null: unlimited), and the
 * requests running ahead of their admission against it.
 */
interface Outlook {
  tokens: number;
  cu: number | null;
  at: number;
  ahead: number;
  aheadCu: number;
}

/** Per bucket, what its last answer left and the requests let ahead against it (Meter.admitAhead). */
export class RunAhead {
  private readonly outlooks = new Map<string, Outlook>();

  /**
   * Lets a request of `cost` CU run ahead when the bucket's last answer, under a second old, left a
   * token and its CU for it and for every request already let ahead. Returns what to call once its
   * admission is answered; undefined: it may not run ahead.
   */
  letAhead(bucket: string, cost: number, at: number): (() => void) | undefined {
    const outlook = this.outlooks.get(bucket);
    const age = outlook === undefined ? -1 : at - outlook.at;
    if (
      outlook === undefined ||
      age < 0 || // the clock went back: trust nothing
      age >= OUTLOOK_MS ||
      outlook.tokens < outlook.ahead + 1 ||
      (outlook.cu !== null && outlook.cu < outlook.aheadCu + cost)
    ) {
      return undefined;
    }
    outlook.ahead += 1;
    outlook.aheadCu += cost;
    return () => {
      outlook.ahead -= 1;
      outlook.aheadCu -= cost;
    };
  }

  /** Keeps what an answer left for its bucket; the requests running ahead stay counted. */
  look(bucket: string, tokens: number, cu: number | null, at: number): void {
    const outlook = this.outlooks.get(bucket);
    if (outlook !== undefined) {
      outlook.tokens = tokens;
      outlook.cu = cu;
      outlook.at = at;
      return;
    }
    if (this.outlooks.size >= BUCKETS_KEPT) sweep(this.outlooks, (old) => old.ahead === 0 && at - old.at >= OUTLOOK_MS);
    this.outlooks.set(bucket, { tokens, cu, at, ahead: 0, aheadCu: 0 });
  }
}
