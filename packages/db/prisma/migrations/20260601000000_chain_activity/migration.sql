-- CreateEnum
CREATE TYPE "chain_event_kind" AS ENUM ('transfer', 'supply', 'withdraw', 'borrow', 'repay', 'liquidation');

-- CreateTable
CREATE TABLE "indexer_checkpoints" (
    "chain_id" INTEGER NOT NULL,
    "indexed_to" BIGINT NOT NULL,
    "planned_to" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "indexer_checkpoints_pkey" PRIMARY KEY ("chain_id")
);

-- CreateTable
CREATE TABLE "indexer_ranges" (
    "chain_id" INTEGER NOT NULL,
    "from_block" BIGINT NOT NULL,
    "to_block" BIGINT NOT NULL,
    "planned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "indexer_ranges_pkey" PRIMARY KEY ("chain_id","from_block")
);

-- CreateTable
CREATE TABLE "chain_transactions" (
    "chain_id" INTEGER NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "block_number" BIGINT NOT NULL,
    "tx_index" INTEGER NOT NULL,
    "block_timestamp" TIMESTAMPTZ(3) NOT NULL,
    "from_address" TEXT NOT NULL,
    "to_address" TEXT,

    CONSTRAINT "chain_transactions_pkey" PRIMARY KEY ("chain_id","tx_hash")
);

-- CreateTable
CREATE TABLE "chain_logs" (
    "chain_id" INTEGER NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "tx_index" INTEGER NOT NULL,
    "block_timestamp" TIMESTAMPTZ(3) NOT NULL,
    "kind" "chain_event_kind" NOT NULL,
    "contract" TEXT NOT NULL,
    "party" TEXT NOT NULL,
    "counterparty" TEXT,
    "asset" TEXT,
    "amount" DECIMAL(78,0) NOT NULL,

    CONSTRAINT "chain_logs_pkey" PRIMARY KEY ("chain_id","tx_hash","log_index")
);

-- CreateTable
CREATE TABLE "address_activity" (
    "chain_id" INTEGER NOT NULL,
    "address" TEXT NOT NULL,
    "first_tx_hash" TEXT NOT NULL,
    "first_tx_block" BIGINT NOT NULL,
    "first_tx_index" INTEGER NOT NULL,
    "first_tx_at" TIMESTAMPTZ(3) NOT NULL,
    "last_tx_hash" TEXT NOT NULL,
    "last_tx_block" BIGINT NOT NULL,
    "last_tx_index" INTEGER NOT NULL,
    "last_tx_at" TIMESTAMPTZ(3) NOT NULL,
    "tx_count" INTEGER NOT NULL DEFAULT 0,
    "transfer_count" INTEGER NOT NULL DEFAULT 0,
    "supply_count" INTEGER NOT NULL DEFAULT 0,
    "first_supply_at" TIMESTAMPTZ(3),
    "last_supply_at" TIMESTAMPTZ(3),
    "withdraw_count" INTEGER NOT NULL DEFAULT 0,
    "first_withdraw_at" TIMESTAMPTZ(3),
    "last_withdraw_at" TIMESTAMPTZ(3),
    "borrow_count" INTEGER NOT NULL DEFAULT 0,
    "first_borrow_at" TIMESTAMPTZ(3),
    "last_borrow_at" TIMESTAMPTZ(3),
    "repay_count" INTEGER NOT NULL DEFAULT 0,
    "first_repay_at" TIMESTAMPTZ(3),
    "last_repay_at" TIMESTAMPTZ(3),
    "liquidation_count" INTEGER NOT NULL DEFAULT 0,
    "first_liquidation_at" TIMESTAMPTZ(3),
    "last_liquidation_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "address_activity_pkey" PRIMARY KEY ("chain_id","address")
);

-- CreateIndex
CREATE INDEX "chain_transactions_chain_id_from_address_idx" ON "chain_transactions"("chain_id", "from_address");

-- CreateIndex
CREATE INDEX "chain_logs_chain_id_party_idx" ON "chain_logs"("chain_id", "party");

-- CreateIndex
CREATE INDEX "address_activity_address_idx" ON "address_activity"("address");
