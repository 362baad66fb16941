import { encodeFunctionData, getAddress, type Address, type Hex } from 'viem';
import { Logger } from '@nestjs/common';
import { createChainClients, type ChainClient } from '@credit/chain/clients';
import { readWalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type { ScoreHistoryResult } from '@credit/contracts/schemas/score-history';
import { ChainActivityReader } from '@credit/db/chain-activity-reader';
import { EnsNamesReader } from '@credit/db/ens-names-reader';
import { MarketHistoryReader } from '@credit/db/market-history-reader';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { devnetAbi } from '@credit/devnet/abis';
import { rpc } from '@credit/devnet/json-rpc';
import { codeOf } from '@credit/testing/domain-errors';
import { finaliseScoringChains, waitUntilIndexed } from '@credit/test-world/indexed-devnet';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { IdentityServiceAttestations } from '@credit/wallet/identity-attestations';
import { dateOf, WalletHistoryReader } from '@credit/wallet/history/wallet-history-reader';
import { walletViewsOf } from '@credit/wallet/wallet-view';
import { CACHE_REDIS_URL, scoringWorld } from './support/scoring-world';

/**
 * The score history (issue 38) over the scoring service's subject on a seeded, indexed devnet:
 * its last point is the score now, a liquidation is a drop on its day, and the past it is rebuilt
 * from (balances, feeds' answers, positions as the index replays them) equals what the devnet
 * itself answers at those blocks, wherever the devnet still keeps their state.
 */
jest.setTimeout(240_000);

const t = scoringWorld();
let db: Db;
let direct: ChainClient[];
let reader: WalletHistoryReader;

beforeAll(async () => {
  db = createPrismaClient(t.database.url, { maxConnections: 2 });
  direct = [...createChainClients(t.registry).values()];
  reader = historyReader(direct);
});

/** The history reader over the test's database and identity service, on `chains`. */
function historyReader(chains: ChainClient[]): WalletHistoryReader {
  return new WalletHistoryReader({
    chains,
    index: new ChainActivityReader(db),
    market: new MarketHistoryReader(db),
    names: new EnsNamesReader(db),
    attestations: new IdentityServiceAttestations(t.client),
    now: () => new Date(),
    logger: new Logger('history-test'),
  });
}

afterAll(async () => {
  await db?.$disconnect();
});

const history = (address: string, days?: number) =>
  t.client.send('credit.score.history.v1', days === undefined ? { address } : { address, days }) as Promise<ScoreHistoryResult>;

describe('score history', () => {
  it("ends with the score now, one point per UTC day, oldest first, none before the wallet's first activity", async () => {
    for (const role of ['healthy_borrower', 'liquidated', 'multichain'] as const) {
      const address = t.cast(role);
      const [result, now] = await Promise.all([history(address, 120), t.client.send('credit.score.address.v1', { address })]);
      const last = result.points[result.points.length - 1]!;
      expect(last).toEqual({ date: last.date, score: now.score, decile: now.decile, range: now.range });
      expect(result.points.length).toBeGreaterThan(1);
      expect(result.points.length).toBeLessThanOrEqual(120);
      const dates = result.points.map((p) => Date.parse(`${p.date}T00:00:00Z`));
      for (let i = 1; i < dates.length; i++) expect(dates[i]! - dates[i - 1]!).toBe(86_400_000);
      // the first point is not before the wallet's first transaction on any chain
      const activity = await new ChainActivityReader(db).activityAcrossChains(address);
      const first = Math.min(...activity.map((a) => a.firstTransaction.timestamp.getTime() / 1000));
      expect(result.points[0]!.date >= dateOf(first)).toBe(true);
    }
  });

  it('is the same answer again (cached past days), and the default is 90 days', async () => {
    const address = t.cast('healthy_borrower');
    const [a, b] = [await history(address, 90), await history(address)];
    expect(b).toEqual(a);
    expect(a.points.length).toBeLessThanOrEqual(90);
  });

  it('refuses an address without activity (404 no_activity) and an invalid one (404 address_not_found)', async () => {
    expect(await codeOf(history(t.cast('empty')))).toBe('no_activity');
    expect(await codeOf(history('0x1234'))).toBe('address_not_found');
  });

  it("reads each day's activity and dealings as the index has them as of the day's block (read once per block of the wallet's own)", async () => {
    const index = new ChainActivityReader(db);
    const ids = t.registry.map((c) => c.id);
    for (const role of ['healthy_borrower', 'liquidated', 'multichain'] as const) {
      const address: Address = getAddress(t.cast(role));
      const dates = (await history(address, 120)).points.slice(0, -1).map((p) => p.date);
      const [{ days }, views] = await Promise.all([reader.replayDays(address, dates), reader.readDays(address, dates)]);
      for (const [d, { snapshots }] of days.entries()) {
        const blocks = new Map(snapshots.map((s) => [s.chainId, s.block.number]));
        const activity = (await Promise.all(ids.map((id) => index.activityAsOfBlock(id, [address], blocks.get(id)!)))).flat();
        const interactions = await index.interactionsOf(ids, [address], blocks);
        const expected = walletViewsOf({
          addresses: [address],
          activity,
          lendingEvents: [],
          interactions,
          snapshots,
          attestations: new Map(),
          computedAt: new Date().toISOString(),
        }).get(address)!;
        expect(views[d]!.view.chains.map((c) => [c.activity, c.interactions])).toEqual(
          expected.chains.map((c) => [c.activity, c.interactions]),
        );
      }
    }
  });

  it('rebuilds the inputs the devnet itself answers at each past day-end block it still keeps', async () => {
    let compared = 0;
    for (const role of ['healthy_borrower', 'liquidated', 'multichain'] as const) {
      const address: Address = getAddress(t.cast(role));
      const result = await history(address, 365);
      const dates = result.points.slice(0, -1).map((p) => p.date);
      const { days } = await reader.replayDays(address, dates);
      for (const { snapshots } of days) {
        for (const replayed of snapshots) {
          const client = direct.find((c) => c.config.id === replayed.chainId)!;
          const actual = await readWalletSnapshot(client, [address], { blockNumber: replayed.block.number }).catch(() => undefined);
          if (actual === undefined) continue; // the devnet no longer keeps that block's state
          compared++;
          const mine = replayed.portfolio.addresses[0]!;
          const theirs = actual.portfolio.addresses[0]!;
          for (const [i, asset] of theirs.assets.entries()) {
            const rebuilt = mine.assets[i]!;
            expect(rebuilt.price.round.answer).toEqual(asset.price.round.answer);
            expect(rebuilt.price.round.updatedAt).toEqual(asset.price.round.updatedAt);
            expect(rebuilt.price.status).toEqual(asset.price.status);
            if (asset.asset.token !== null) expect(rebuilt.amount).toEqual(asset.amount);
            // the native coin: less the gas the wallet paid after the block (not indexed), never more
            else expect(rebuilt.amount! <= asset.amount!).toBe(true);
          }
          const positions = replayed.lending.addresses[0]!.positions.map((p) => p.data);
          expect(positions).toEqual(actual.lending.addresses[0]!.positions.map((p) => p.data));
        }
      }
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('refuses a chain whose price feed the index holds no answer of (503 naming the feed), rather than unpriced days', async () => {
    const silentFeed = getAddress('0x000000000000000000000000000000000000fEEd');
    const [first, ...rest] = direct;
    const chains = [{ ...first!, config: { ...first!.config, nativePriceFeed: silentFeed } }, ...rest];
    const silent = historyReader(chains);
    const { points } = await history(t.cast('healthy_borrower'), 2);
    const refused = silent.readDays(getAddress(t.cast('healthy_borrower')), [points[0]!.date]);
    await expect(refused).rejects.toMatchObject({ code: 'service_unavailable', message: expect.stringContaining(silentFeed) });
  });

  it('refuses a chain indexed before its market history was (503 naming index:reset), and answers once it is whole', async () => {
    const address = getAddress(t.cast('healthy_borrower'));
    const { points } = await history(address, 2);
    const chainId = direct[0]!.config.id;
    await db.$executeRawUnsafe('UPDATE indexer_chains SET market_history_complete = false WHERE chain_id = $1', chainId);
    try {
      await expect(reader.readDays(address, [points[0]!.date])).rejects.toMatchObject({
        code: 'service_unavailable',
        message: expect.stringContaining('index:reset'),
      });
    } finally {
      await db.$executeRawUnsafe('UPDATE indexer_chains SET market_history_complete = true WHERE chain_id = $1', chainId);
    }
    expect(await reader.readDays(address, [points[0]!.date])).toHaveLength(1);
  });

  // last: it changes the borrower's state and moves the devnet's clock
  it('a liquidation is a drop on its day', async () => {
    const borrower = getAddress(t.cast('healthy_borrower'));
    const chain = t.devnet.chains.find((c) => c.spec.role === 'scoring' && t.devnet.state.contracts[String(c.spec.id)]?.lendingPool)!;
    const url = chain.rpcUrl;
    const contracts = t.devnet.state.contracts[String(chain.spec.id)]!;
    const pool = contracts.lendingPool!.address;
    const dai = contracts.tokens.DAI!.address;
    const weth = contracts.tokens.WETH!.address;
    const feed = contracts.priceFeeds['ETH / USD']!;
    const word = async (to: Address, data: Hex) => BigInt((await rpc<Hex>(url, 'eth_call', [{ to, data }, 'latest'])).slice(0, 66));
    const sendAs = async (from: Address, to: Address, data: Hex) => {
      await rpc(url, 'anvil_impersonateAccount', [from]);
      await rpc(url, 'anvil_setBalance', [from, '0x56bc75e2d63100000']);
      const hash = await rpc<Hex>(url, 'eth_sendTransaction', [{ from, to, data, gas: '0x1e8480' }]);
      await rpc(url, 'anvil_stopImpersonatingAccount', [from]);
      let receipt = await rpc<{ status: Hex; blockNumber: Hex } | null>(url, 'eth_getTransactionReceipt', [hash]);
      if (receipt === null) {
        await rpc(url, 'anvil_mine', ['0x1']); // a world that mines on request only
        receipt = (await rpc<{ status: Hex; blockNumber: Hex } | null>(url, 'eth_getTransactionReceipt', [hash]))!;
      }
      expect(receipt.status).toBe('0x1');
      return BigInt(receipt.blockNumber);
    };
    // every scoring chain's clock moves together (a chain left behind would hold its unindexed last blocks before the days asked for)
    const nextDay = async () => {
      for (const c of t.devnet.chains.filter((x) => x.spec.role === 'scoring')) {
        await rpc(c.rpcUrl, 'evm_increaseTime', [86_400]);
        await rpc(c.rpcUrl, 'anvil_mine', ['0x1']);
      }
    };
    const poolAbi = devnetAbi('LendingPool');
    const tokenAbi = devnetAbi('DevToken');
    const feedAbi = devnetAbi('MockAggregatorV3');

    // day 1: borrow most of what the borrower may
    await nextDay();
    const accountData = await rpc<Hex>(url, 'eth_call', [
      { to: pool, data: encodeFunctionData({ abi: poolAbi, functionName: 'getUserAccountData', args: [borrower] }) },
      'latest',
    ]);
    const available = BigInt(`0x${accountData.slice(2 + 128, 2 + 192)}`) * 10n ** 10n;
    await sendAs(
      borrower,
      pool,
      encodeFunctionData({ abi: poolAbi, functionName: 'borrow', args: [dai, (available * 95n) / 100n, 2n, 0, borrower] }),
    );
    // day 2: ETH falls by half and a liquidator repays the debt it may, taking WETH
    await nextDay();
    const feedOwner = getAddress(
      `0x${(await word(feed, encodeFunctionData({ abi: feedAbi, functionName: 'owner' }))).toString(16).padStart(40, '0')}`,
    );
    const answer = await word(feed, encodeFunctionData({ abi: feedAbi, functionName: 'latestAnswer' }));
    await sendAs(feedOwner, feed, encodeFunctionData({ abi: feedAbi, functionName: 'setAnswer', args: [answer / 2n] }));
    const daiOwner = getAddress(
      `0x${(await word(dai, encodeFunctionData({ abi: tokenAbi, functionName: 'owner' }))).toString(16).padStart(40, '0')}`,
    );
    const liquidator = getAddress('0x000000000000000000000000000000000000dEaD');
    const plenty = 10n ** 30n;
    await sendAs(daiOwner, dai, encodeFunctionData({ abi: tokenAbi, functionName: 'mint', args: [liquidator, plenty] }));
    await sendAs(liquidator, dai, encodeFunctionData({ abi: tokenAbi, functionName: 'approve', args: [pool, plenty] }));
    const liquidated = await sendAs(
      liquidator,
      pool,
      encodeFunctionData({ abi: poolAbi, functionName: 'liquidationCall', args: [weth, dai, borrower, plenty, false] }),
    );
    // day 3: the liquidation's day is over; everything indexed
    await nextDay();
    await waitUntilIndexed(t.indexer, await finaliseScoringChains(t.devnet, 2), 120_000);
    await deleteKeysWithPrefix(CACHE_REDIS_URL, t.prefix);

    const block = await rpc<{ timestamp: Hex }>(url, 'eth_getBlockByNumber', [`0x${liquidated.toString(16)}`, false]);
    const day = dateOf(Number(BigInt(block.timestamp)));
    const result = await history(borrower, 30);
    const at = result.points.findIndex((p) => p.date === day);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(result.points.length - 1);
    expect(result.points[at]!.score).toBeLessThan(result.points[at - 1]!.score);
  });
});
