-- The value (wei) each transaction carried: a wallet's native balance over a window is read
-- back from its transfers in and out (the model's balances are their lowest over 30 days).
ALTER TABLE "chain_transactions" ADD COLUMN "value" DECIMAL(78,0) NOT NULL DEFAULT 0;

-- What a wallet received: transactions sent to it and token transfers it was the recipient of.
CREATE INDEX "chain_transactions_chain_id_to_address_idx" ON "chain_transactions"("chain_id", "to_address");
CREATE INDEX "chain_logs_chain_id_counterparty_idx" ON "chain_logs"("chain_id", "counterparty");
