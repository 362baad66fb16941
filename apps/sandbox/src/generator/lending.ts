import type { SandboxChain } from './chains';
import type { Rng } from './prng';
import { SANDBOX_PROTOCOLS } from './protocols';

/** A lending position in cents, before it becomes a SandboxLendingPosition. */
export interface LendingDraft {
  protocol: string;
  chainId: number;
  suppliedCents: number;
  borrowedCents: number;
  collateralDeposits: number;
  repayments: number;
  liquidations: number;
}

/**
 * 0–3 positions on distinct (protocol, chain) pairs of the active chains. Better scores lend more
 * often, borrow a smaller share of what the protocol allows and are rarely liquidated.
 * borrowed ≤ supplied × LTV always holds.
 */
export function lendingPositions(rng: Rng, active: readonly SandboxChain[], quality: number, wealthCents: number): LendingDraft[] {
  if (!rng.chance(0.2 + 0.5 * quality)) return [];
  const candidates: { protocolIndex: number; chainIndex: number }[] = [];
  SANDBOX_PROTOCOLS.forEach((protocol, protocolIndex) =>
    active.forEach((chain, chainIndex) => {
      if (protocol.chains.includes(chain.id)) candidates.push({ protocolIndex, chainIndex });
    }),
  );
  const wanted = Math.min(rng.int(1, 3), candidates.length);
  const chosen: typeof candidates = [];
  for (let i = 0; i < wanted; i++) chosen.push(...candidates.splice(rng.int(0, candidates.length - 1), 1));
  chosen.sort((a, b) => a.chainIndex - b.chainIndex || a.protocolIndex - b.protocolIndex);
  return chosen.map(({ protocolIndex, chainIndex }) => {
    const protocol = SANDBOX_PROTOCOLS[protocolIndex]!;
    const chain = active[chainIndex]!;
    const suppliedCents = Math.max(5_000, Math.floor(wealthCents * (0.1 + 1.1 * rng.float())));
    const maxBorrowCents = Math.floor((suppliedCents * protocol.ltvBps) / 10_000);
    const borrows = rng.chance(0.6);
    const utilisation = 0.1 + 0.85 * (1 - quality) * rng.float();
    const borrowedCents = borrows ? Math.floor(maxBorrowCents * utilisation) : 0;
    const collateralDeposits = rng.int(1, 12);
    const repayments = borrowedCents > 0 || rng.chance(0.3) ? rng.int(0, 15) : 0;
    const liquidations = rng.chance(0.3 * (1 - quality) * (1 - quality)) ? rng.int(1, 3) : 0;
    return { protocol: protocol.name, chainId: chain.id, suppliedCents, borrowedCents, collateralDeposits, repayments, liquidations };
  });
}
