import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevnet, type Devnet, type StartDevnetOptions } from '../src/devnet';
import { blockList, timestampsNonDecreasing, type BlockHeader } from '../src/block-list';
import { rpc } from '../src/json-rpc';
import { seededDevnetOptions } from '../src/seed/seed-world';
import { DAY } from '../src/seed/time';

jest.setTimeout(120_000);

/**
 * The devnet's second day: a saved world that ran on (the feeds' heartbeat, transactions of its
 * users) is stopped and started again. Its clock must continue from the saved head, never from
 * the genesis time it was first started with, and the blocks it had are the same blocks.
 */
describe('a devnet started again from its saved world', () => {
  const ANCHOR = 1_780_000_000 - (1_780_000_000 % DAY);
  const running: Devnet[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(running.map((d) => d.stop()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function start(options: StartDevnetOptions): Promise<Devnet> {
    const devnet = await startDevnet(options);
    running.push(devnet);
    return devnet;
  }

  async function restartTwice(extra: Pick<StartDevnetOptions, 'clockAt'>, clockIs: (head: BlockHeader) => void): Promise<void> {
    const stateDir = mkdtempSync(join(tmpdir(), 'devnet-restart-'));
    dirs.push(stateDir);
    const options = { ...seededDevnetOptions({ anchorTimestamp: ANCHOR, populationSize: 4 }), ...extra, stateDir };
    const first = await start(options);
    expect(first.reused).toBe(false);
    const ethereum = () => running[running.length - 1]!.chains.find((c) => c.spec.id === 1)!.rpcUrl;
    await rpc(ethereum(), 'anvil_mine', ['0x3']); // the world runs on after its start…
    await first.save(); // …and is saved as it is now
    const before = await blockList(ethereum());
    await first.stop();

    for (let i = 0; i < 2; i += 1) {
      const again = await start(options);
      expect(again.reused).toBe(true);
      const after = await blockList(ethereum());
      const kept = after.slice(0, before.length);
      expect(kept).toEqual(before.slice(0, kept.length)); // the same blocks, hashes included
      expect(after.length).toBeGreaterThan(before.length); // the start's heartbeat mined on
      const mined = after.slice(before.length);
      // every block mined after the reload is later than every block before it
      expect(mined.every((b) => b.timestamp > before[before.length - 1]!.timestamp)).toBe(true);
      expect(timestampsNonDecreasing(after)).toBe(true);
      clockIs(mined[0]!);
      await again.save();
      before.splice(0, before.length, ...after);
      await again.stop();
    }
  }

  it('on the wall clock: continues at today’s time, after the saved head', async () => {
    const startedAt = Math.floor(Date.now() / 1000);
    await restartTwice({}, (firstMined) => expect(firstMined.timestamp).toBeGreaterThanOrEqual(startedAt));
  });

  it('on a fixed clock (the reference world’s kind): continues just after the saved head, not at the wall clock', async () => {
    await restartTwice({ clockAt: ANCHOR }, (firstMined) => {
      expect(firstMined.timestamp).toBeGreaterThan(ANCHOR);
      expect(firstMined.timestamp).toBeLessThan(ANCHOR + 600);
    });
  });
});
