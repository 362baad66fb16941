import type { Address } from 'viem';
import type { ChainRegistry } from '@credit/chain/chain-config';
import { EnsNamesReader } from '@credit/db/ens-names-reader';
import { createPrismaClient } from '@credit/db/prisma-client';

/** The names each address owns on the registry's ENS chain, and since when (the name index of `databaseUrl`). */
export async function heldNamesOf(
  databaseUrl: string,
  registry: ChainRegistry,
  addresses: readonly Address[],
): Promise<Map<Address, { name: string; since: number }[]>> {
  const ensChain = registry.find((c) => c.ens?.registry !== undefined);
  if (ensChain === undefined) return new Map();
  const db = createPrismaClient(databaseUrl, { maxConnections: 1, applicationName: 'credit-model-card' });
  try {
    const held = await new EnsNamesReader(db).heldNames(ensChain.id, addresses);
    return new Map(addresses.map((a) => [a, held.get(a.toLowerCase()) ?? []]));
  } finally {
    await db.$disconnect();
  }
}
