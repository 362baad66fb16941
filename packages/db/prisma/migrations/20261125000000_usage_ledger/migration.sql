-- The CU ledger replaces usage_records (never written): one row per charge and per refund, keyed
-- by an id the gateway's metering script made (never the caller's x-request-id), so a row written
-- twice is written once. `period` is the calendar month (UTC) of the counter the entry moved.

-- DropTable
DROP TABLE "usage_records";

-- CreateEnum
CREATE TYPE "usage_entry_kind" AS ENUM ('charge', 'refund');

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN "monthly_cu_limit" INTEGER;

-- CreateTable
CREATE TABLE "usage_ledger" (
    "id" BIGSERIAL NOT NULL,
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

    CONSTRAINT "usage_ledger_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "usage_ledger_entry_id_key" ON "usage_ledger"("entry_id");

-- CreateIndex
CREATE INDEX "usage_ledger_account_id_period_idx" ON "usage_ledger"("account_id", "period");

-- AddForeignKey
ALTER TABLE "usage_ledger" ADD CONSTRAINT "usage_ledger_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_ledger" ADD CONSTRAINT "usage_ledger_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;
