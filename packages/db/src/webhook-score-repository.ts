import type { PlanName } from '@credit/contracts/pricing';
import type { Db } from './prisma-client';

/** One factor as stored with a score: its points and rating. */
export interface StoredFactor {
  label: string;
  points: number;
  rating: string;
}

/** A score as the detector compares it: null score for an address without activity. */
export interface StoredScore {
  score: number | null;
  decile: number | null;
  range: string | null;
  factors: StoredFactor[];
}

/** One webhook watching one address, with what its owner is charged against and the last score it was told. */
export interface Watch {
  webhookId: string;
  accountId: string;
  plan: PlanName;
  /** An enterprise account's contracted CU a month; null: the plan's own allowance. */
  monthlyCu: number | null;
  minChange: number;
  address: string;
}

/**
 * The `webhook_scores` table and the watched-address queries of score-change detection (issue 38;
 * docs/ARCHITECTURE.md decision 38). Addresses are stored checksummed, as the webhooks hold them;
 * the indexer's tables hold them in lower case.
 */
export class WebhookScoreRepository {
  constructor(private readonly db: Db) {}

  /**
   * The watched addresses (any webhook's) that sent or received a transaction, or are a party to an
   * indexed log, in blocks `fromBlock..toBlock` of the chain. One query: per watched address, an
   * index lookup on `(chain_id, from_address | to_address | party | counterparty)` bounded by the blocks.
   */
  async watchedTouched(chainId: number, fromBlock: bigint, toBlock: bigint): Promise<string[]> {
    const rows = await this.db.$queryRaw<{ address: string }[]>`
      WITH watched AS (SELECT DISTINCT a AS address, lower(a) AS lowered FROM "webhooks", unnest("addresses") AS a)
      SELECT w.address FROM watched AS w
      WHERE EXISTS (SELECT 1 FROM "chain_transactions" t WHERE t."chain_id" = ${chainId} AND t."from_address" = w.lowered
                      AND t."block_number" BETWEEN ${fromBlock} AND ${toBlock})
         OR EXISTS (SELECT 1 FROM "chain_transactions" t WHERE t."chain_id" = ${chainId} AND t."to_address" = w.lowered
                      AND t."block_number" BETWEEN ${fromBlock} AND ${toBlock})
         OR EXISTS (SELECT 1 FROM "chain_logs" l WHERE l."chain_id" = ${chainId} AND l."party" = w.lowered
                      AND l."block_number" BETWEEN ${fromBlock} AND ${toBlock})
         OR EXISTS (SELECT 1 FROM "chain_logs" l WHERE l."chain_id" = ${chainId} AND l."counterparty" = w.lowered
                      AND l."block_number" BETWEEN ${fromBlock} AND ${toBlock})
      ORDER BY w.address`;
    return rows.map((r) => r.address);
  }

  /** Every address some webhook watches (a price moved: any of them may have). */
  async allWatched(): Promise<string[]> {
    const rows = await this.db.$queryRaw<{ address: string }[]>`
      SELECT DISTINCT a AS address FROM "webhooks", unnest("addresses") AS a ORDER BY 1`;
    return rows.map((r) => r.address);
  }

  /** Every webhook watching any of `addresses`, once per (webhook, address) (the GIN index on `addresses`). */
  async watchesOf(addresses: readonly string[]): Promise<Watch[]> {
    return this.db.$queryRaw<Watch[]>`
      SELECT w."id" AS "webhookId", w."account_id" AS "accountId", acc."plan"::text AS "plan",
             acc."monthly_cu_limit" AS "monthlyCu", w."min_change" AS "minChange", a AS "address"
      FROM "webhooks" AS w
      JOIN "accounts" AS acc ON acc."id" = w."account_id"
      CROSS JOIN LATERAL unnest(w."addresses") AS a
      WHERE w."addresses" && ${addresses as string[]}::text[] AND a = ANY(${addresses as string[]}::text[])
      ORDER BY w."id", a`;
  }

  /** Stores a new webhook's baselines (a score already stored stays). */
  async saveBaselines(webhookId: string, scores: readonly (StoredScore & { address: string })[]): Promise<void> {
    for (const s of scores) {
      await this.db.$executeRaw`
        INSERT INTO "webhook_scores" ("webhook_id", "address", "score", "decile", "range", "factors")
        VALUES (${webhookId}, ${s.address}, ${s.score}, ${s.decile}, ${s.range}, ${JSON.stringify(s.factors)}::jsonb)
        ON CONFLICT ("webhook_id", "address") DO NOTHING`;
    }
  }

  /**
   * Runs `decide` with the stored score of (webhook, address) under its row lock, and stores what it
   * returns (nothing when it returns undefined): two detections of one address take turns, so a
   * change is sent once. Null when nothing is stored yet. The webhook deleted meanwhile: nothing stored.
   */
  async withStoredScore(
    webhookId: string,
    address: string,
    decide: (stored: StoredScore | null) => Promise<StoredScore | undefined>,
  ): Promise<void> {
    await this.db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<StoredScore[]>`
          SELECT "score", "decile", "range", "factors" FROM "webhook_scores"
          WHERE "webhook_id" = ${webhookId} AND "address" = ${address} FOR UPDATE`;
        const next = await decide(rows[0] ?? null);
        if (next === undefined) return;
        await tx.$executeRaw`
          INSERT INTO "webhook_scores" ("webhook_id", "address", "score", "decile", "range", "factors", "updated_at")
          SELECT w."id", ${address}, ${next.score}, ${next.decile}, ${next.range}, ${JSON.stringify(next.factors)}::jsonb, now()
          FROM "webhooks" AS w WHERE w."id" = ${webhookId}
          ON CONFLICT ("webhook_id", "address") DO UPDATE SET
            "score" = EXCLUDED."score", "decile" = EXCLUDED."decile", "range" = EXCLUDED."range",
            "factors" = EXCLUDED."factors", "updated_at" = EXCLUDED."updated_at"`;
      },
      { timeout: 15_000 },
    );
  }
}
