-- AlterTable
ALTER TABLE "indexer_ranges" ADD COLUMN "to_block_hash" TEXT;
