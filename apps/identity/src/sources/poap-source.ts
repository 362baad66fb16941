import { z } from 'zod';
import type { Address } from 'viem';
import type { IdentityFields, IdentitySource } from '../domain/identity-source';
import { ProviderError, requestJson, trimBase } from './http-json';

export interface PoapSourceConfig {
  /** The POAP API base, e.g. `https://api.poap.tech`. */
  baseUrl: string;
  /** Sent as `X-API-Key`. */
  apiKey: string;
  timeoutMs?: number;
}

const PROVIDER = 'poap';
const DEFAULT_TIMEOUT_MS = 3_000;

/** One element of `GET /actions/scan/{address}`: a token and its event (drop). */
const ScannedToken = z.object({
  event: z.object({
    id: z.number().int(),
    name: z.string(),
    start_date: z.string(),
  }),
  tokenId: z.string(),
  chain: z.string(),
});
const ScanResponse = z.array(ScannedToken);

/**
 * POAP (attendance tokens): the tokens the address holds and their events. The API answers 200
 * with an empty array when the address holds none, which is "nothing known" (`undefined`). Every
 * event's `start_date` must convert to a real calendar date, or the whole answer is refused.
 */
export class PoapSource implements IdentitySource {
  readonly name = 'poap' as const;
  readonly timeoutMs: number;

  constructor(private readonly config: PoapSourceConfig) {
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async lookup(address: Address, signal: AbortSignal): Promise<IdentityFields | undefined> {
    const url = `${trimBase(this.config.baseUrl)}/actions/scan/${address}`;
    const tokens = await requestJson({
      provider: PROVIDER,
      url,
      headers: { 'X-API-Key': this.config.apiKey },
      signal,
      schema: ScanResponse,
    });
    if (tokens === undefined || tokens.length === 0) return undefined;
    const events = tokens.map((token) => ({ name: token.event.name, date: toIsoDate(token.event.start_date) }));
    return { poaps: { count: tokens.length, events } };
  }
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * An event date as `YYYY-MM-DD`. The API answers `DD-Mon-YYYY` ("23-Jan-2022"); the reference
 * page's example shows `MM-DD-YYYY` ("07-18-2022"), and an ISO `YYYY-MM-DD` passes unchanged.
 * Anything else, or a day that does not exist, is a garbage answer.
 */
export function toIsoDate(raw: string): string {
  const text = raw.trim();
  let parts: [number, number, number] | undefined;
  let match = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(text);
  if (match) {
    const month = MONTHS.indexOf(match[2]!.toLowerCase()) + 1;
    if (month > 0) parts = [Number(match[3]), month, Number(match[1])];
  } else if ((match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text))) {
    parts = [Number(match[1]), Number(match[2]), Number(match[3])];
  } else if ((match = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text))) {
    parts = [Number(match[3]), Number(match[1]), Number(match[2])];
  }
  if (!parts || !isCalendarDate(...parts)) {
    throw new ProviderError(PROVIDER, 'shape', `an event start_date is not a date: ${JSON.stringify(raw)}`);
  }
  const [year, month, day] = parts;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
