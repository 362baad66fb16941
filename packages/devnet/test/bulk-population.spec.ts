import { bulkHubAddress, bulkWalletAddress } from '../src/seed/bulk-population';
import { REFERENCE_WORLD, referenceDevnetOptions } from '../src/seed/reference-world';
import { scaleDevnetOptions } from '../src/seed/scale-world';
import { seededDevnetOptions } from '../src/seed/seed-world';

describe('the scale world (issue 37)', () => {
  it('leaves the key of every world without bulk wallets as it was', () => {
    const key = JSON.parse(referenceDevnetOptions().worldKey!) as Record<string, unknown>;
    expect(Object.keys(key).sort()).toEqual(['anchorTimestamp', 'populationSize', 'seed', 'world']);
    expect(seededDevnetOptions({ ...REFERENCE_WORLD, bulkWallets: 0 }).worldKey).toBe(referenceDevnetOptions().worldKey);
  });

  it('is the reference world with its bulk wallets in its own key', () => {
    const scale = scaleDevnetOptions(1_000);
    expect(JSON.parse(scale.worldKey!)).toEqual({ ...JSON.parse(referenceDevnetOptions().worldKey!), bulkWallets: 1_000 });
    expect(scale.clockAt).toBe(REFERENCE_WORLD.anchorTimestamp);
    expect(scale.genesisTimestamp).toBe(referenceDevnetOptions().genesisTimestamp);
    expect(scaleDevnetOptions(2_000).worldKey).not.toBe(scale.worldKey);
  });

  it('derives its wallets and hubs from the seed: the same every time, all distinct', () => {
    const wallets = Array.from({ length: 1_000 }, (_, i) => bulkWalletAddress('credit-devnet', i));
    expect(new Set(wallets).size).toBe(1_000);
    expect(bulkWalletAddress('credit-devnet', 7)).toBe(wallets[7]);
    expect(bulkWalletAddress('other', 7)).not.toBe(wallets[7]);
    for (const w of wallets) expect(w).toMatch(/^0x[0-9a-f]{40}$/);
    expect(bulkHubAddress('credit-devnet', 1, 0)).not.toBe(bulkHubAddress('credit-devnet', 8453, 0));
  });
});
