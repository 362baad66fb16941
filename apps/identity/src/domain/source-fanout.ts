import { setMaxListeners } from 'node:events';
import type { Address } from 'viem';
import type { IdentityFields, IdentitySource, SourceName } from './identity-source';
import { identitySourceLookups } from '../identity-metrics';

export interface FanoutLogger {
  warn(message: string): void;
}

/**
 * Per source: answers with data, answers without, failures (errors, garbage, timeouts), per
 * address, since the service started (scraped at the health port's `/metrics`).
 */
export type SourceCounters = Record<SourceName, { found: number; nothing: number; failed: number }>;

export interface FanoutResult {
  fields: IdentityFields;
  /** The sources that failed or did not answer in time (their part is missing from `fields`). */
  failed: SourceName[];
}

type Outcome = { ok: true; fields: IdentityFields | undefined } | { ok: false; reason: unknown };

/**
 * Asks every configured source at once, each under its own time limit, so a cold lookup takes as
 * long as the slowest source, not their sum. A source with `lookupMany` gets all the addresses in
 * one call; the others one call per address, all at once. A source that fails or is late is
 * logged, counted (`counters`) and left out; the others' answers are merged (`social` per network).
 */
export class SourceFanout {
  readonly counters = {} as SourceCounters;

  constructor(
    private readonly sources: readonly IdentitySource[],
    private readonly logger: FanoutLogger,
  ) {
    for (const source of sources) this.counters[source.name] = { found: 0, nothing: 0, failed: 0 };
  }

  async lookup(address: Address): Promise<FanoutResult> {
    return (await this.lookupMany([address])).get(address)!;
  }

  async lookupMany(addresses: readonly Address[]): Promise<Map<Address, FanoutResult>> {
    const answers = await Promise.all(this.sources.map((source) => this.ask(source, addresses)));
    const results = new Map<Address, FanoutResult>(addresses.map((a) => [a, { fields: {}, failed: [] }]));
    answers.forEach((answer, i) => {
      const source = this.sources[i]!;
      const counter = this.counters[source.name];
      for (const address of addresses) {
        const result = results.get(address)!;
        const outcome = answer.get(address)!;
        if (!outcome.ok) {
          counter.failed += 1;
          identitySourceLookups.inc({ source: source.name, outcome: 'failed' });
          result.failed.push(source.name);
          const reason = outcome.reason as Error | undefined;
          const why =
            reason?.name === 'TimeoutError' ? `no answer within ${source.timeoutMs} ms` : String(reason?.message ?? reason).split('\n')[0];
          this.logger.warn(`identity source ${source.name} failed for ${address}: ${why} (failures so far: ${counter.failed})`);
          continue;
        }
        if (outcome.fields === undefined) {
          counter.nothing += 1;
          identitySourceLookups.inc({ source: source.name, outcome: 'nothing' });
          continue;
        }
        counter.found += 1;
        identitySourceLookups.inc({ source: source.name, outcome: 'found' });
        const { social, ...rest } = outcome.fields;
        Object.assign(result.fields, rest);
        if (social) result.fields.social = { ...result.fields.social, ...social };
      }
    });
    return results;
  }

  /** One source's outcome per address: a batch source fails as a whole, the others address by address. */
  private async ask(source: IdentitySource, addresses: readonly Address[]): Promise<Map<Address, Outcome>> {
    const signal = AbortSignal.timeout(source.timeoutMs);
    // one listener per address's request on the one signal: not a leak
    setMaxListeners(Math.max(10, addresses.length + 10), signal);
    if (source.lookupMany) {
      try {
        const found = await source.lookupMany(addresses, signal);
        return new Map(addresses.map((a) => [a, { ok: true, fields: found.get(a) }]));
      } catch (reason) {
        return new Map(addresses.map((a) => [a, { ok: false, reason }]));
      }
    }
    const settled = await Promise.allSettled(addresses.map((a) => source.lookup(a, signal)));
    return new Map(
      addresses.map((a, i): [Address, Outcome] => {
        const s = settled[i]!;
        return [a, s.status === 'fulfilled' ? { ok: true, fields: s.value } : { ok: false, reason: s.reason }];
      }),
    );
  }
}
