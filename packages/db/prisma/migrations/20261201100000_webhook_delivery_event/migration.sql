-- A job that comes back after its worker died first asks whether its event was already answered
-- 2xx (apps/webhooks/src/delivery-worker.ts): one index lookup, not a scan of the webhook's attempts.
CREATE INDEX "webhook_deliveries_webhook_id_event_id_idx" ON "webhook_deliveries"("webhook_id", "event_id");
