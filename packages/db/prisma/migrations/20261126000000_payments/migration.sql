-- The x402 payments ledger (docs/decisions/0005): one row per payment the payments service
-- accepted, reserved before its request runs and then settled (with the transaction) or failed
-- (the request was not served, or the settlement did not go through). (network, payer, nonce) is
-- unique: the durable half of "one payment, one request" (the other is Redis's SET NX).

-- CreateEnum
CREATE TYPE "payment_status" AS ENUM ('reserved', 'settled', 'failed');

-- CreateTable
CREATE TABLE "payments" (
    "id" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "x402_version" INTEGER NOT NULL,
    "payer" TEXT NOT NULL,
    "pay_to" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "amount" NUMERIC(78,0) NOT NULL,
    "nonce" TEXT NOT NULL,
    "valid_before" BIGINT NOT NULL,
    "request_id" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "cu" INTEGER NOT NULL,
    "status" "payment_status" NOT NULL DEFAULT 'reserved',
    "transaction" TEXT,
    "error" TEXT,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "payments_network_payer_nonce_key" ON "payments"("network", "payer", "nonce");

-- CreateIndex
CREATE INDEX "payments_payer_created_at_idx" ON "payments"("payer", "created_at" DESC);

-- CreateIndex: the reserved ones, for the sweep of lapsed reservations
CREATE INDEX "payments_reserved_idx" ON "payments"("created_at") WHERE "status" = 'reserved';
