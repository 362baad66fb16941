import { getAddress, type Address } from 'viem';
import type { ChainClient } from '@credit/chain/clients';
import type { CheckpointRecord } from '@credit/db/chain-activity-types';
import type { HeadRef } from '@credit/db/index-freshness';
import { IndexedOwnedNames } from '../src/domain/indexed-owned-names';

/**
 * The owned names as the identity service lists them, from fakes of its readers: only names that
 * survive ENS normalisation unchanged, each once, sorted; nothing from an index behind the head.
 */
const ADA: Address = getAddress('0x00000000000000000000000000000000000000a1');
const BOB: Address = getAddress('0x00000000000000000000000000000000000000b2');
const CHAIN_ID = 1;
const HEAD: HeadRef = { number: 100n, timestamp: 1_700_000_000n };
const FRESH: CheckpointRecord = {
  chainId: CHAIN_ID,
  indexedTo: 98n,
  plannedTo: 98n,
  indexedToAt: new Date(1_699_999_976_000),
  confirmations: 2,
};

function reader(owned: Record<string, string[]>, progress: CheckpointRecord = FRESH): IndexedOwnedNames {
  return new IndexedOwnedNames({
    chain: { config: { id: CHAIN_ID } } as ChainClient,
    names: { ownedNames: async () => new Map(Object.entries(owned)) },
    index: { checkpoints: async () => new Map([[CHAIN_ID, progress]]) },
    maxIndexLagSeconds: 600,
  });
}

const OWNED = {
  [ADA.toLowerCase()]: ['zed.eth', 'Ada.eth', 'ada.eth', 'a..eth', 'ada.eth', 'ａda.eth'],
  [BOB.toLowerCase()]: ['Bob.eth'],
};

it('lists only the names that normalise to themselves, once each, sorted; an address with none gets an empty list', async () => {
  const names = await reader(OWNED).ownedNames([ADA, BOB], Promise.resolve(HEAD));
  expect(Object.fromEntries(names)).toEqual({ [ADA]: ['ada.eth', 'zed.eth'], [BOB]: [] });
});

it('refuses an index that is behind the head', async () => {
  const behind: CheckpointRecord = { ...FRESH, indexedTo: 10n, plannedTo: 10n, indexedToAt: new Date(1_600_000_000_000) };
  await expect(reader(OWNED, behind).ownedNames([ADA], Promise.resolve(HEAD))).rejects.toThrow(/behind its head/);
});
