import { normalize } from 'viem/ens';
import type { Address } from 'viem';
import type { ChainClient } from '@credit/chain/clients';
import type { ChainActivityReader } from '@credit/db/chain-activity-reader';
import type { EnsNamesReader } from '@credit/db/ens-names-reader';
import { indexFreshness, type HeadRef } from '@credit/db/index-freshness';

/** A name as ENS normalises it (UTS-46, viem's `normalize`), or null when it is not a valid name. */
function normalised(name: string): string | null {
  try {
    return normalize(name);
  } catch {
    return null;
  }
}

/**
 * The names addresses own on the ENS chain, from the registry's and the registrar controller's
 * events as the indexer recorded them (`EnsNamesReader`), never from a list kept in code. Served
 * only from a fresh index: the chain's head is read and judged against the indexer's checkpoint as
 * wallet readings are (`indexFreshness`), so a name registered in history the indexer has not
 * reached yet is never silently missing; a stale index throws (the source fails, the answer is
 * incomplete and cached briefly). A name is listed only as ENS normalises it: a label that does
 * not survive normalisation unchanged (upper case, a disallowed character) is not a name anyone
 * can resolve, and is left out.
 */
export class IndexedOwnedNames {
  constructor(
    private readonly deps: {
      chain: ChainClient;
      names: Pick<EnsNamesReader, 'ownedNames'>;
      index: Pick<ChainActivityReader, 'checkpoints'>;
      maxIndexLagSeconds: number;
    },
  ) {}

  /** `head`: the chain's head as the read made beside this one saw it (the reverse records' multicall). */
  async ownedNames(addresses: readonly Address[], head: Promise<HeadRef>): Promise<Map<Address, string[]>> {
    const chainId = this.deps.chain.config.id;
    const [headRef, checkpoints, owned] = await Promise.all([
      head,
      this.deps.index.checkpoints([chainId]),
      this.deps.names.ownedNames(chainId, addresses),
    ]);
    const verdict = indexFreshness(chainId, headRef, checkpoints.get(chainId), this.deps.maxIndexLagSeconds);
    if (!verdict.fresh) throw new Error(verdict.reason);
    return new Map(
      addresses.map((a) => {
        const names = (owned.get(a.toLowerCase()) ?? []).filter((name) => normalised(name) === name);
        return [a, [...new Set(names)].sort()];
      }),
    );
  }
}
