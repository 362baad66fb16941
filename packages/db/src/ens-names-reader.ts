import { lower } from './activity-deltas';
import type { Db } from './prisma-client';
import { rawRows } from './raw-rows';

/**
 * The names each address owns on a chain, from the name-service events the indexer recorded
 * (`ens_name_events`), in ONE query for many addresses: a node counts when its latest owner event
 * (NewOwner / Transfer, by block and log index) names the address, and it has a registered name
 * (NameRegistered carried its label). A name transferred away is no longer owned; a node with no
 * registered label (a subname made in the registry only) has no name to show. Names come back as
 * the events carried them, sorted; the caller normalises.
 */
export class EnsNamesReader {
  constructor(private readonly db: Db) {}

  async ownedNames(chainId: number, addresses: readonly string[]): Promise<Map<string, string[]>> {
    const held = await this.heldNames(chainId, addresses);
    return new Map([...held].map(([owner, names]) => [owner, [...new Set(names.map((n) => n.name))]]));
  }

  /**
   * The same names, each with the time (seconds) its owner got it: the block time of the latest
   * owner event, so a name transferred a day ago was held for a day, whenever it was registered.
   */
  async heldNames(chainId: number, addresses: readonly string[]): Promise<Map<string, { name: string; since: number }[]>> {
    const wanted = [...new Set(addresses.map(lower))];
    const owned = new Map<string, { name: string; since: number }[]>(wanted.map((a) => [a, []]));
    if (wanted.length === 0) return owned;
    const rows = await rawRows<{ owner: string; name: string; since: Date }>(
      this.db,
      `WITH latest AS (
         SELECT DISTINCT ON (e.node) e.node, e.owner, e.block_timestamp
         FROM ens_name_events e
         WHERE e.chain_id = $1 AND e.kind IN ('new_owner', 'transfer')
           AND e.node IN (SELECT node FROM ens_name_events WHERE chain_id = $1 AND owner = ANY($2::text[]))
         ORDER BY e.node, e.block_number DESC, e.log_index DESC
       )
       SELECT DISTINCT l.owner, r.name, l.block_timestamp AS since
       FROM latest l
       JOIN ens_name_events r ON r.chain_id = $1 AND r.node = l.node AND r.kind = 'name_registered'
       WHERE l.owner = ANY($2::text[])
       ORDER BY l.owner, r.name`,
      [chainId, wanted],
    );
    for (const row of rows) owned.get(row.owner)?.push({ name: row.name, since: Math.floor(row.since.getTime() / 1000) });
    return owned;
  }
}
