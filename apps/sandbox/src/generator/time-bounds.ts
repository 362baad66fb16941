/** Fixed calendar bounds of generated activity (Unix seconds, UTC): never relative to "now". */
export const FIRST_TRANSACTION_MIN = 1_451_606_400; // 2016-01-01T00:00:00Z
export const FIRST_TRANSACTION_MAX = 1_751_327_999; // 2025-06-30T23:59:59Z
export const LAST_TRANSACTION_MAX = 1_767_225_600; // 2026-01-01T00:00:00Z

const DAY = 86_400;
const HOUR = 3_600;
export { DAY, HOUR };

/** YYYY-MM-DD of a Unix time, in UTC. */
export function isoDate(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().slice(0, 10);
}
