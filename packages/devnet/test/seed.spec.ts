import { createPublicClient, http, namehash, parseEventLogs, toEventSelector, type Address, type Chain, type Hex } from 'viem';
import { devnetAbi } from '../src/abis';
import { startDevnet, type Devnet } from '../src/devnet';
import { ensAbi, ensEvents } from '../src/ens';
import { ENS_HOLDER_AVATAR, ENS_HOLDER_NAME, ENS_HOLDER_NAMES } from '../src/seed/cast';
import { OUTCOME_WINDOW, POPULATION_ENS_NAMES, type PopulationEntry } from '../src/seed/population';
import { seededDevnetOptions } from '../src/seed/seed-world';
import { DAY } from '../src/seed/time';
import { deployerAccount } from '../src/deploy';
import { refreshFeeds } from '../src/feed-heartbeat';

const ANCHOR = 1_780_000_000 - (1_780_000_000 % DAY); // a fixed "now" for the seeded history
const OPTIONS = { seed: 'test-seed', anchorTimestamp: ANCHOR, populationSize: 24 };

const LIQUIDATION = toEventSelector(
  'LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken)',
);
const BORROW = toEventSelector(
  'Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
);
const REPAY = toEventSelector(
  'Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens)',
);
const topic = (a: Address): Hex => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`;

describe('seeded world', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    // No feed heartbeat: these tests read the seeded history itself, up to its last block.
    devnet = await startDevnet({ ...seededDevnetOptions(OPTIONS), heartbeat: false });
  }, 60_000);
  afterAll(async () => {
    await devnet?.stop();
  });

  const client = (id: number) => {
    const c = devnet.chains.find((x) => x.spec.id === id)!;
    return createPublicClient({ chain: c.chain as Chain, transport: http(c.rpcUrl) });
  };
  const poolLogs = (id: number, topic0: Hex, userTopicIndex: 1 | 2 | 3, user: Address) =>
    client(id).request({
      method: 'eth_getLogs',
      params: [
        {
          address: devnet.contracts[id]!.lendingPool!.address,
          fromBlock: '0x0',
          toBlock: 'latest',
          topics: [
            topic0,
            ...(userTopicIndex === 3 ? [null, null, topic(user)] : userTopicIndex === 2 ? [null, topic(user)] : [topic(user)]),
          ],
        },
      ],
    } as never) as Promise<{ blockNumber: Hex }[]>;
  const blockTime = async (id: number, blockNumber: Hex) =>
    Number((await client(id).getBlock({ blockNumber: BigInt(blockNumber) })).timestamp);

  /** The pool's getUserAccountData for an account on chain 1: collateral, debt, …, health factor. */
  const accountData = async (who: Address) =>
    (await client(1).readContract({
      address: devnet.contracts[1]!.lendingPool!.address,
      abi: devnetAbi('LendingPool'),
      functionName: 'getUserAccountData',
      args: [who],
    })) as readonly bigint[];

  it('writes the cast into state.json', () => {
    expect(Object.keys(devnet.state.cast).sort()).toEqual([
      'empty',
      'ens_holder',
      'healthy_borrower',
      'liquidated',
      'multichain',
      'new_wallet',
      'payer', // the payment chain's devnet-only payer (payments.spec.ts), not seeded
    ]);
    expect(devnet.state.cast.ens_holder!.ens).toBe('ada.eth');
  });

  it('the healthy borrower: four years of loans on chain 1, twelve repaid, never liquidated', async () => {
    const who = devnet.state.cast.healthy_borrower!.address;
    const borrows = await poolLogs(1, BORROW, 2, who);
    const repays = await poolLogs(1, REPAY, 2, who);
    expect(borrows).toHaveLength(13);
    expect(repays).toHaveLength(12);
    expect(await poolLogs(1, LIQUIDATION, 3, who)).toHaveLength(0);
    expect(await blockTime(1, borrows[0]!.blockNumber)).toBe(ANCHOR - 4 * 365 * DAY + 20 * DAY);
    const data = await accountData(who);
    expect(data[1]).toBe(20_000n * 10n ** 8n); // the open DAI loan
    expect(data[5]! > 2n * 10n ** 18n).toBe(true);
  });

  it('the liquidated wallet: exactly one liquidation, then the position closed', async () => {
    const who = devnet.state.cast.liquidated!.address;
    const liquidations = await poolLogs(1, LIQUIDATION, 3, who);
    expect(liquidations).toHaveLength(1);
    expect(await blockTime(1, liquidations[0]!.blockNumber)).toBe(ANCHOR - 600 * DAY + 3600);
    const data = await accountData(who);
    expect(data.slice(0, 2)).toEqual([0n, 0n]);
  });

  it('the new wallet has one transaction, two days old; the empty address none anywhere', async () => {
    const fresh = devnet.state.cast.new_wallet!.address;
    expect(await client(8453).getTransactionCount({ address: fresh })).toBe(1);
    expect(await client(1).getTransactionCount({ address: fresh })).toBe(0);
    // its transaction is in the last block of chain 8453's history, two days before the anchor
    const last = await client(8453).getBlock({ includeTransactions: true });
    expect(Number(last.timestamp)).toBe(ANCHOR - 2 * DAY);
    expect(last.transactions.map((t) => t.from.toLowerCase())).toEqual([fresh.toLowerCase()]);
    const empty = devnet.state.cast.empty!.address;
    for (const c of devnet.chains) {
      expect(await client(c.spec.id).getTransactionCount({ address: empty })).toBe(0);
      expect(await client(c.spec.id).getBalance({ address: empty })).toBe(0n);
    }
  });

  it('the multichain wallet is active on both scoring chains', async () => {
    const who = devnet.state.cast.multichain!.address;
    expect(await client(1).getTransactionCount({ address: who })).toBeGreaterThan(3);
    expect(await client(8453).getTransactionCount({ address: who })).toBeGreaterThan(3);
  });

  it("the ENS holder's name resolves both ways, with its avatar, through viem", async () => {
    const who = devnet.state.cast.ens_holder!.address;
    expect(await client(1).getEnsName({ address: who })).toBe('ada.eth');
    expect(await client(1).getEnsAddress({ name: 'ada.eth' })).toBe(who);
    expect(await client(1).getEnsAvatar({ name: 'ada.eth' })).toBe(ENS_HOLDER_AVATAR);
  });

  it('the ENS holder owns its three names and chosen population wallets theirs, all registered by the deployer through the controller', async () => {
    const ens = devnet.contracts[1]!.ens!;
    const ownerOf = (name: string) =>
      client(1).readContract({ address: ens.registry, abi: ensAbi.registry(), functionName: 'owner', args: [namehash(name)] });
    const holder = devnet.state.cast.ens_holder!.address;
    expect(ENS_HOLDER_NAMES).toEqual([ENS_HOLDER_NAME, 'ada-labs.eth', 'lovelace.eth']);
    for (const name of ENS_HOLDER_NAMES) {
      expect(await ownerOf(name)).toBe(holder);
      expect(await client(1).getEnsAddress({ name })).toBe(holder);
    }
    expect(await client(1).getEnsName({ address: holder })).toBe(ENS_HOLDER_NAME); // the primary name is unchanged

    // three wallets of chain 1 (the ENS chain), the first with two names, recorded in state.json
    const owners = (devnet.state.population as PopulationEntry[]).filter((p) => p.ens);
    const byName = (a: readonly string[], b: readonly string[]) => a[0]!.localeCompare(b[0]!);
    expect(owners.map((p) => p.ens!).sort(byName)).toEqual([...POPULATION_ENS_NAMES].sort(byName));
    expect(owners.every((p) => p.chainId === 1)).toBe(true);
    expect(new Set(owners.map((p) => p.address)).size).toBe(3);
    for (const p of owners) {
      for (const name of p.ens!) {
        expect(await ownerOf(name)).toBe(p.address);
        expect(await client(1).getEnsAddress({ name })).toBe(p.address);
      }
    }

    // the chain's own events name them: the controller's NameRegistered, the registry's NewOwner / Transfer
    const logs = await client(1).getLogs({ address: [ens.registry, ens.registrarController], fromBlock: 0n, toBlock: 'latest' });
    const events = parseEventLogs({ abi: ensEvents, logs });
    const registered = events.filter((e) => e.eventName === 'NameRegistered');
    const expected = [...ENS_HOLDER_NAMES.map((n) => [n, holder]), ...owners.flatMap((p) => p.ens!.map((n) => [n, p.address]))];
    expect(registered.map((e) => [`${e.args.name}.eth`, e.args.owner]).sort()).toEqual(expected.sort());
    const transfers = new Map(events.flatMap((e) => (e.eventName === 'Transfer' ? [[e.args.node, e.args.owner] as const] : [])));
    for (const [name, owner] of expected) expect(transfers.get(namehash(name!))).toBe(owner);
    // every registration is the deployer's transaction (the owners sent none for it)
    const senders = await Promise.all(registered.map(async (e) => (await client(1).getTransaction({ hash: e.transactionHash })).from));
    expect(new Set(senders)).toEqual(new Set([deployerAccount().address.toLowerCase()]));
  });

  /** The last block of a chain at or before `t`. */
  const blockAt = async (id: number, t: number): Promise<bigint> => {
    let lo = 0n;
    let hi = await client(id).getBlockNumber();
    while (lo < hi) {
      const mid = (lo + hi + 1n) / 2n;
      if (Number((await client(id).getBlock({ blockNumber: mid })).timestamp) <= t) lo = mid;
      else hi = mid - 1n;
    }
    return lo;
  };

  it("the population's recorded outcomes are what happened on chain in the window", async () => {
    const population = devnet.state.population as PopulationEntry[];
    expect(population).toHaveLength(24);
    const { featuresAt, windowEnd } = population[0]!.outcome;
    expect(featuresAt).toBe(ANCHOR - OUTCOME_WINDOW.featuresAtDaysBeforeAnchor * DAY);
    expect(windowEnd).toBe(featuresAt + OUTCOME_WINDOW.days * DAY);
    expect(population.some((p) => p.outcome.liquidated)).toBe(true);
    expect(population.some((p) => p.openLoan && !p.outcome.liquidated)).toBe(true);
    for (const p of population) {
      expect(p.outcome.shockAt).toBe(featuresAt);
      expect(p.traits.discipline).toBeGreaterThanOrEqual(0);
      expect(p.traits.discipline).toBeLessThanOrEqual(1);
      expect(p.outcome.ceilingProbability).toBeGreaterThanOrEqual(0);
      expect(p.outcome.ceilingProbability).toBeLessThanOrEqual(1);
      if (p.kind === 'holder')
        expect([p.outcome.ceilingProbability, p.outcome.healthFactorAtT, p.outcome.liquidated]).toEqual([0, null, false]);
      // the ceiling's input is kept for every wallet with debt at T, its traits as recorded
      expect(p.outcome.ceilingWallet === null).toBe(p.outcome.healthFactorAtT === null);
      if (p.outcome.ceilingWallet) {
        expect(p.outcome.ceilingWallet.discipline).toBe(p.traits.discipline);
        expect(p.outcome.ceilingWallet.debtUsd).toBeGreaterThan(0);
        expect(p.outcome.ceilingWallet.collateral).toBeGreaterThan(0);
      }
      const logs = await poolLogs(p.chainId, LIQUIDATION, 3, p.address);
      const times = await Promise.all(logs.map((l) => blockTime(p.chainId, l.blockNumber)));
      // every liquidation of a population wallet is in the window, by the liquidator (account 9)
      for (const t of times) expect(t > featuresAt && t <= windowEnd).toBe(true);
      expect(logs.length).toBe(p.outcome.liquidations);
      expect(p.outcome.liquidated).toBe(logs.length > 0);
      expect(p.outcome.firstLiquidatedAt).toBe(times.length > 0 ? Math.min(...times) : null);
    }
  });

  it('the population: history before T (health factors as recorded), interest posted, past loans repaid in full', async () => {
    const population = devnet.state.population as PopulationEntry[];
    const featuresAt = population[0]!.outcome.featuresAt;
    const pool = (id: number) => devnet.contracts[id]!.lendingPool!.address;
    const interestTopic = toEventSelector('InterestCharged(address indexed reserve, address indexed user, uint256 amount)');
    for (const id of [1, 8453]) {
      const atT = await blockAt(id, featuresAt);
      // nothing of the population in the hour before T (the features moment sees history only)
      const members = new Set(population.filter((p) => p.chainId === id).map((p) => p.address.toLowerCase()));
      for (let n = atT; n > 0n; n--) {
        const block = await client(id).getBlock({ blockNumber: n, includeTransactions: true });
        if (Number(block.timestamp) < featuresAt - 3600) break;
        for (const tx of block.transactions)
          expect(members.has(tx.from.toLowerCase()) || members.has((tx.to ?? '').toLowerCase())).toBe(false);
      }
      const charged = new Map<string, number>();
      const logs = (await client(id).request({
        method: 'eth_getLogs',
        params: [{ address: pool(id), fromBlock: '0x0', toBlock: 'latest', topics: [interestTopic] }],
      } as never)) as { topics: Hex[] }[];
      for (const l of logs) {
        const user = `0x${l.topics[2]!.slice(26)}`;
        charged.set(user, (charged.get(user) ?? 0) + 1);
      }
      for (const p of population.filter((x) => x.chainId === id && x.kind === 'borrower')) {
        const [, debt, , , , hf] = (await client(id).readContract({
          address: pool(id),
          abi: devnetAbi('LendingPool'),
          functionName: 'getUserAccountData',
          args: [p.address],
          blockNumber: atT,
        })) as readonly bigint[];
        expect(p.outcome.healthFactorAtT).toBe(debt === 0n ? null : hf!.toString());
        // without an open loan, every past loan was repaid in full, interest included
        if (!p.openLoan) expect(debt).toBe(0n);
        if (p.openLoan) {
          const principalBase = p.openLoan.symbol === 'USDC' ? BigInt(p.openLoan.amount) * 100n : BigInt(p.openLoan.amount) / 10n ** 10n;
          expect(debt! >= principalBase).toBe(true);
        }
        if (p.loansRepaid > 0 || (p.openLoan && p.openLoan.borrowedAt < featuresAt - 31 * DAY)) {
          expect(charged.get(p.address.toLowerCase()) ?? 0).toBeGreaterThan(0);
        }
      }
    }
  });

  it('two worlds of one seed and parameters are the same; other market parameters give the same histories and other outcomes', async () => {
    const calm = await startDevnet({
      ...seededDevnetOptions({ ...OPTIONS, world: { dailyVol: 0.001, jumpsPerYear: 0 } }),
      heartbeat: false,
    });
    try {
      const base = devnet.state.population as PopulationEntry[];
      const other = calm.state.population as PopulationEntry[];
      const history = (p: PopulationEntry) => [p.address, p.kind, p.collateral, p.openLoan, p.loansRepaid, p.transfers, p.traits];
      expect(other.map(history)).toEqual(base.map(history));
      expect(other.map((p) => p.outcome.liquidated)).not.toEqual(base.map((p) => p.outcome.liquidated));
      expect(other.map((p) => p.outcome.ceilingProbability)).not.toEqual(base.map((p) => p.outcome.ceilingProbability));
      expect(calm.state.populationWorld!.params).toMatchObject({ dailyVol: 0.001, jumpsPerYear: 0 });
      expect(calm.state.worldHash).not.toBe(devnet.state.worldHash);
    } finally {
      await calm.stop();
    }
  }, 60_000);

  it('the same seed gives the same world (same blocks)', async () => {
    const again = await startDevnet({ ...seededDevnetOptions(OPTIONS), heartbeat: false });
    try {
      expect(again.state.cast).toEqual(devnet.state.cast);
      expect(again.state.population).toEqual(devnet.state.population);
      expect(again.state.contracts).toEqual(devnet.state.contracts);
      for (const id of [1, 8453]) {
        const a = await client(id).getBlock();
        const c = again.chains.find((x) => x.spec.id === id)!;
        const b = await createPublicClient({ transport: http(c.rpcUrl) }).getBlock();
        expect([b.number, b.hash, b.timestamp]).toEqual([a.number, a.hash, a.timestamp]);
      }
    } finally {
      await again.stop();
    }
  }, 60_000);
});

describe('feed heartbeat', () => {
  it('re-answers every feed at the current block without changing its price', async () => {
    const world = await startDevnet({ ...seededDevnetOptions({ ...OPTIONS, seed: 'heartbeat' }), heartbeat: false });
    try {
      const abi = devnetAbi('MockAggregatorV3');
      const read = async () =>
        Promise.all(
          world.chains.flatMap((c) => {
            const pc = createPublicClient({ transport: http(c.rpcUrl) });
            return Object.values(world.contracts[c.spec.id]!.priceFeeds).map(
              async (feed) => (await pc.readContract({ address: feed, abi, functionName: 'latestRoundData' })) as readonly bigint[],
            );
          }),
        );
      const before = await read();
      await refreshFeeds(world.chains, world.contracts, deployerAccount());
      const after = await read();
      for (const [i, round] of after.entries()) {
        expect(round[1]).toBe(before[i]![1]); // same answer
        expect(round[0]).toBe(before[i]![0]! + 1n); // a new round
        expect(round[3]).toBeGreaterThan(before[i]![3]!); // stamped later
      }
    } finally {
      await world.stop();
    }
  });
});
