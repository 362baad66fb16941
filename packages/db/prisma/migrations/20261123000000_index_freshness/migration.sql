-- AlterTable
ALTER TABLE "indexer_checkpoints" ADD COLUMN "confirmations" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "indexer_ranges" ADD COLUMN "to_block_at" TIMESTAMPTZ(3);
