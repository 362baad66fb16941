-- CreateTable
CREATE TABLE "indexer_chains" (
    "chain_id" INTEGER NOT NULL,
    "genesis_hash" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "indexer_chains_pkey" PRIMARY KEY ("chain_id")
);
