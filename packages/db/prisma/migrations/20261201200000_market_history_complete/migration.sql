-- Whether a chain's index holds its whole market history (feeds' answers, lending moves): a chain
-- indexed before 20261201000000_market_history has ranges without them, and a score history read
-- from it would sum positions from part of their moves. Such a chain is refused by the history
-- until it is indexed again (`index:reset`, docs/OPERATIONS.md), which sets this back to true.
ALTER TABLE "indexer_chains" ADD COLUMN "market_history_complete" BOOLEAN NOT NULL DEFAULT true;
UPDATE "indexer_chains" c SET "market_history_complete" = false
 WHERE EXISTS (SELECT 1 FROM "indexer_ranges" r WHERE r."chain_id" = c."chain_id" AND r."completed_at" IS NOT NULL);
