-- The CU ledger replaces usage_records (never written): one row per charge and per refund, keyed
-- by an id the gateway's metering script made (never the caller's x-request-id), so a row written
-- twice is written once. `period` is the calendar month (UTC) of the counter the entry moved.
-- Append-only history written at the request rate: no foreign keys (accounts and keys are never
-- deleted), and the entry id is the primary key: an insert updates two indexes and nothing else.

-- DropTable
DROP TABLE "usage_records";

-- CreateEnum
CREATE TYPE "usage_entry_kind" AS ENUM ('charge', 'refund');

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN "monthly_cu_limit" INTEGER;

-- CreateTable
CREATE TABLE "usage_ledger" (
    "entry_id" TEXT NOT NULL,
    "charge_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "key_id" TEXT,
    "operation" TEXT NOT NULL,
    "kind" "usage_entry_kind" NOT NULL,
    "cu" INTEGER NOT NULL,
    "status_code" INTEGER,
    "request_id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_ledger_pkey" PRIMARY KEY ("entry_id")
);

-- CreateIndex
CREATE INDEX "usage_ledger_account_id_period_idx" ON "usage_ledger"("account_id", "period");
