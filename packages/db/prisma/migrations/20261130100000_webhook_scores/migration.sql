-- Score-change webhooks (issue 38): the last score each webhook was told about each address it
-- watches: its baseline, read when the webhook was created, then the score of each `score.changed`
-- queued. The detector compares a fresh score with it. `score` is null while the address has no
-- on-chain activity (no score). Deleted with the webhook.

-- CreateTable
CREATE TABLE "webhook_scores" (
    "webhook_id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "score" INTEGER,
    "decile" INTEGER,
    "range" TEXT,
    "factors" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_scores_pkey" PRIMARY KEY ("webhook_id","address")
);

-- CreateIndex
CREATE INDEX "webhook_scores_address_idx" ON "webhook_scores"("address");

-- AddForeignKey
ALTER TABLE "webhook_scores" ADD CONSTRAINT "webhook_scores_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateIndex: the detector finds the webhooks watching an address (`addresses && $1`).
CREATE INDEX "webhooks_addresses_idx" ON "webhooks" USING GIN ("addresses");
