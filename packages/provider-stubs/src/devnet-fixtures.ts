import type { StubFixtures } from './fixtures';

/** What the stubs say about the devnet's cast, by role (docs/DEVNET.md): made-up provider data about local test wallets. */
const BY_ROLE: Record<string, StubFixtures[string]> = {
  // every source: the ENS holder is the wallet with a full identity
  ens_holder: {
    passport: { score: '27.41500', stamps: ['Google', 'Github', 'Ens'] },
    poaps: [
      { name: 'Devcon 7', date: '2024-11-12' },
      { name: 'ETHGlobal Brussels 2025', date: '2025-07-11' },
    ],
    farcaster: 'ada',
    lens: 'ada',
  },
  healthy_borrower: { passport: { score: '12.50000', stamps: ['Google'] }, poaps: [{ name: 'DeFi Lisbon 2025', date: '2025-05-09' }] },
  multichain: { farcaster: 'bridger' },
};

/**
 * The stubs' fixtures for a devnet world: the cast's roles above, at the world's addresses (read
 * from `.devnet/state.json`'s `cast`). Roles the world lacks are left out.
 */
export function devnetFixtures(cast: Readonly<Record<string, { address: string } | undefined>>): StubFixtures {
  const fixtures: StubFixtures = {};
  for (const [role, fixture] of Object.entries(BY_ROLE)) {
    const member = cast[role];
    if (member && fixture) fixtures[member.address.toLowerCase()] = fixture;
  }
  return fixtures;
}
