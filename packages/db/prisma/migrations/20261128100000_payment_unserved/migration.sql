-- x402 (issue 32): a payment whose own transfer is confirmed on chain but whose answer was not
-- handed to the caller (the request gave up waiting, a process died) is `unserved`: a retry of
-- the same payment gets the stored answer (and the row becomes `settled`), else it is refunded.

-- AlterEnum
ALTER TYPE "payment_status" ADD VALUE 'unserved';
