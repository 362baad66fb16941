-- The index's ranges are read by their end, never by their start (issue 37, docs/SCALE.md): a
-- chain's checkpoint joins the range that ends at `indexed_to`, and a wallet's history window
-- starts from the newest completed range's end time. The primary key (chain_id, from_block) serves
-- neither, so both read every range of the chain: a sequential scan over a table of one row per
-- hundred blocks (on Ethereum's history, ~240,000 rows a chain), once per score.
CREATE INDEX "indexer_ranges_to_block_idx" ON "indexer_ranges"("chain_id", "to_block");

-- The newest completed range's end time: a backward scan that stops at the first completed range.
CREATE INDEX "indexer_ranges_time_idx" ON "indexer_ranges"("chain_id", "to_block_at");
