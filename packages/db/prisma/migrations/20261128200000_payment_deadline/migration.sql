-- x402 (issue 32): a reserved payment whose request may still be waiting (its service still
-- running, its settlement still awaited) is left alone by the payments service's sweep. The
-- gateway says until when it waits (its operation's timeout plus the settle's) when it verifies;
-- the sweep takes only rows past it, plus one settle wait (a settlement sent just before it).
-- Rows from before: their creation plus one default settle wait (a minute), so the sweep takes them
-- when it did before (created two settle waits ago).

-- AlterTable
ALTER TABLE "payments" ADD COLUMN "deadline" TIMESTAMPTZ(3);
UPDATE "payments" SET "deadline" = "created_at" + interval '1 minute';
ALTER TABLE "payments" ALTER COLUMN "deadline" SET NOT NULL;

-- The sweep's index: the reserved ones, by how long they are held
DROP INDEX "payments_reserved_idx";
CREATE INDEX "payments_reserved_idx" ON "payments"("deadline") WHERE "status" = 'reserved';
