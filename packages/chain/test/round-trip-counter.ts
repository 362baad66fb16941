import type { RpcRoundTrip } from '../src/clients';

/** Collects round trips from `ChainClientOptions.onRequest`, for tests that count them. */
export class RoundTripCounter {
  readonly trips: RpcRoundTrip[] = [];

  readonly onRequest = (trip: RpcRoundTrip): void => {
    this.trips.push(trip);
  };

  /** Round trips so far, on one chain or all. */
  count(chainId?: number): number {
    return chainId === undefined ? this.trips.length : this.trips.filter((t) => t.chainId === chainId).length;
  }

  /** The methods sent, in order (`['eth_call']` for one multicall). */
  methods(chainId?: number): string[] {
    return this.trips.filter((t) => chainId === undefined || t.chainId === chainId).flatMap((t) => t.methods);
  }

  reset(): void {
    this.trips.length = 0;
  }
}
