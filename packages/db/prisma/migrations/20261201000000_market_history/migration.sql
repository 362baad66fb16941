-- Score history (issue 38): what a wallet's lending positions and the prices stood at on any past
-- block, from the index alone (no archive node). Written by the indexer with each range, deleted
-- with the range's blocks on a rollback.

-- Each configured price feed's answers (Chainlink AggregatorV3 `AnswerUpdated`): the feed's price
-- at a block is its latest answer at or before it.
CREATE TABLE "chain_price_answers" (
    "chain_id" INTEGER NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_timestamp" TIMESTAMPTZ(3) NOT NULL,
    "feed" TEXT NOT NULL,
    "round_id" DECIMAL(78,0) NOT NULL,
    "answer" DECIMAL(78,0) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "chain_price_answers_pkey" PRIMARY KEY ("chain_id","tx_hash","log_index")
);
CREATE INDEX "chain_price_answers_feed_idx" ON "chain_price_answers"("chain_id", "feed", "block_number", "log_index");

-- Each change of an account's supplied and borrowed amounts of one reserve at a lending pool, as
-- the pool's events say (supply, withdraw, borrow, repay, a liquidation's debt covered and
-- collateral seized, interest posted): signed base units. An account's position at a block is the
-- sum of its moves up to it.
CREATE TABLE "chain_lending_moves" (
    "chain_id" INTEGER NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "asset" TEXT NOT NULL,
    "block_number" BIGINT NOT NULL,
    "tx_index" INTEGER NOT NULL,
    "block_timestamp" TIMESTAMPTZ(3) NOT NULL,
    "pool" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "supplied" DECIMAL(78,0) NOT NULL,
    "borrowed" DECIMAL(78,0) NOT NULL,

    CONSTRAINT "chain_lending_moves_pkey" PRIMARY KEY ("chain_id","tx_hash","log_index","asset")
);
CREATE INDEX "chain_lending_moves_account_idx" ON "chain_lending_moves"("chain_id", "account", "block_number");

-- A day's last block: the newest transaction before the day's end.
CREATE INDEX "chain_transactions_time_idx" ON "chain_transactions"("chain_id", "block_timestamp");
