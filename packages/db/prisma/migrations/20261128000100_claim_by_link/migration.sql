-- Claiming an account is the mailbox owner's act (issue 32, docs/decisions/0006): the password is
-- chosen on the page the emailed link opens, never at sign-up, so a pending verification no longer
-- holds one. Dropping the column also drops every password a requester chose for a link not yet
-- followed: such a link now opens the page where the mailbox owner chooses the password.

-- AlterTable
ALTER TABLE "email_verifications" DROP COLUMN "password_hash";
