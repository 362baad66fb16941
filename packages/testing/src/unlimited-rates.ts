/**
 * Gateway rate limits out of the way of suites that test something else (the metering suites set
 * their own); the monthly allowances stay the plans' own.
 */
export const UNLIMITED_RATES = {
  RATE_LIMIT_FREE_PER_MIN: '1000000',
  RATE_LIMIT_PRO_PER_MIN: '1000000',
  RATE_LIMIT_ENTERPRISE_PER_MIN: '1000000',
  RATE_LIMIT_X402_PER_MIN: '1000000',
} as const;
