-- CreateEnum
CREATE TYPE "ens_event_kind" AS ENUM ('name_registered', 'new_owner', 'transfer');

-- CreateTable
CREATE TABLE "ens_name_events" (
    "chain_id" INTEGER NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "block_timestamp" TIMESTAMPTZ(3) NOT NULL,
    "kind" "ens_event_kind" NOT NULL,
    "contract" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "name" TEXT,
    "owner" TEXT NOT NULL,

    CONSTRAINT "ens_name_events_pkey" PRIMARY KEY ("chain_id","tx_hash","log_index")
);

-- CreateIndex
CREATE INDEX "ens_name_events_chain_id_owner_idx" ON "ens_name_events"("chain_id", "owner");

-- CreateIndex
CREATE INDEX "ens_name_events_chain_id_node_block_number_log_index_idx" ON "ens_name_events"("chain_id", "node", "block_number", "log_index");
