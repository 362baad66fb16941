/**
 * The ledger's columns in the order the metering outbox carries them. Each charge and refund is one
 * line of Postgres's COPY text format (fields separated by tabs, `\N` for null, backslash escapes,
 * `occurred_at` as an ISO 8601 timestamp), which the ledger writer copies into `usage_ledger` as it
 * is (docs/decisions/0004-metering-ledger.md). The line's producer (`@credit/metering`) and the COPY
 * statement (`@credit/db`) both take the order from here.
 */
export const LEDGER_LINE_COLUMNS = [
  'entry_id',
  'charge_id',
  'account_id',
  'key_id',
  'operation',
  'kind',
  'cu',
  'status_code',
  'request_id',
  'period',
  'occurred_at',
] as const;
