import type { Address } from 'viem';
import { countCacheLookups } from '@credit/observability/cache-metrics';
import type { WalletCache } from '@credit/wallet/wallet-cache';
import type { WalletView } from '@credit/wallet/wallet-view';
import { WalletOutcome } from './wallet-outcome';

/** Verdicts parsed lately, by their stored text (about 4 KB each with the text). */
const PARSED_KEPT = 10_000;

/**
 * The verdicts of the cached views (issue 37: a warm score costs what a cache hit should): each
 * wallet's outcome stored beside the view it was computed from, under `score:<model fingerprint>`,
 * so a hit is one small field read and no re-scoring; a new view drops it (`WalletCache`). An
 * unreadable verdict is a miss: the view is scored again.
 *
 * Redis stays the one source of truth. The verdict texts are read through the process's copy of
 * them that Redis keeps coherent (`TrackedFieldCopy`: a repeated read asks Redis nothing, a change
 * in Redis drops it); what this class keeps is only the parse of a text it has read before
 * (validating a verdict costs several times what reading it does): the same text always parses to
 * the same verdict, so nothing kept here can go stale.
 */
export class ScoreCache {
  private readonly field: string;
  private readonly parsedByText = new Map<string, WalletOutcome>();

  constructor(
    private readonly cache: Pick<WalletCache, 'getDerived' | 'peekDerived' | 'setDerived'>,
    fingerprint: string,
  ) {
    this.field = `score:${fingerprint}`;
  }

  /** The verdict of `address` when this process holds its text, read with no promise; undefined: ask `get`. */
  peek(address: Address): WalletOutcome | undefined {
    const text = this.cache.peekDerived(address, this.field);
    const outcome = text === undefined ? undefined : this.outcomeOf(text);
    if (outcome !== undefined) countCacheLookups('score_verdict', 1, 0);
    return outcome;
  }

  async get(addresses: readonly Address[]): Promise<Map<Address, WalletOutcome>> {
    const found = new Map<Address, WalletOutcome>();
    for (const [address, text] of await this.cache.getDerived(addresses, this.field)) {
      const outcome = this.outcomeOf(text);
      if (outcome !== undefined) found.set(address, outcome);
    }
    countCacheLookups('score_verdict', found.size, addresses.length - found.size);
    return found;
  }

  /** A stored text's verdict: parsed once, then kept (undefined when unreadable). */
  private outcomeOf(text: string): WalletOutcome | undefined {
    return this.parsedByText.get(text) ?? this.keep(text, parsed(text));
  }

  private keep(text: string, outcome: WalletOutcome | undefined): WalletOutcome | undefined {
    if (outcome === undefined) return undefined;
    if (this.parsedByText.size >= PARSED_KEPT) this.parsedByText.delete(this.parsedByText.keys().next().value!);
    this.parsedByText.set(text, outcome);
    return outcome;
  }

  async set(scored: readonly { address: Address; view: WalletView; outcome: WalletOutcome }[]): Promise<void> {
    const entries = scored.map(({ address, view, outcome }) => {
      const value = JSON.stringify(outcome);
      this.keep(value, outcome);
      return { address, viewComputedAt: view.computedAt, value };
    });
    await this.cache.setDerived(entries, this.field);
  }
}

function parsed(text: string): WalletOutcome | undefined {
  try {
    const result = WalletOutcome.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
