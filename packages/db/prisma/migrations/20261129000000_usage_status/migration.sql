-- The dashboard's usage per status (issue 39): how many production requests each API key made on
-- each UTC day, by how they were answered (2xx served, 4xx refused, 429 rate-limited or over the
-- allowance, 5xx failed). Counted by the gateway in memory and added here every few seconds, so a
-- row is a running sum: one row per account, key, day and status class.

-- CreateTable
CREATE TABLE "usage_status_daily" (
    "account_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "status_class" TEXT NOT NULL,
    "requests" BIGINT NOT NULL,

    CONSTRAINT "usage_status_daily_pkey" PRIMARY KEY ("account_id","day","key_id","status_class")
);
