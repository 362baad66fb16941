/** A per-bucket map (the free leases, the run-ahead outlooks) is kept to about this many entries. */
export const BUCKETS_KEPT = 10_000;

/** Drops the entries of a per-bucket map that are of no more use (it is kept to BUCKETS_KEPT or so). */
export function sweep<V>(map: Map<string, V>, stale: (value: V) => boolean): void {
  for (const [key, value] of map) if (stale(value)) map.delete(key);
}
