import { encodeFunctionData, keccak256, maxUint256, parseEther, toHex, type Address } from 'viem';
import { ChainScript } from './chain-script';
import { BLOCK_GAS_BUDGET, type BulkTransaction } from './chain-writer';
import { Rng } from './rng';
import { DAY } from './time';

/**
 * The scale world's bulk wallets (issue 37): many generated wallets with a short history each,
 * written around the reference population and cast (whose history stays as it is), so that the
 * tables grow the way a public chain's do: most addresses have a handful of transactions, a few
 * hubs (exchanges' hot wallets) have very many, and blocks are full (~`BULK_BLOCK_TXS` each).
 *
 * Each wallet, on one scoring chain (wallet i on chain i mod the chain count), over a span of its
 * own inside the five years of history: a hub sends it ether and a stablecoin; it sends part of the
 * stablecoin to another bulk wallet; half of them also send it a little ether; `LENDER_SHARE` of
 * them approve the pool and supply half their stablecoin, and `BORROWER_SHARE` of those borrow the
 * other stablecoin (a quarter of what they supplied), approve it and repay the loan. The bulk wallets
 * have no keys: their transactions are sent unsigned (`ChainWriter.bulk`), which is what makes
 * 100,000 wallets cheap enough to seed.
 */

/** Transactions per bulk block (mainnet carries ~150–200 a block). */
export const BULK_BLOCK_TXS = 200;
/** The hubs per chain that fund the bulk wallets. */
export const BULK_HUBS = 20;
const LENDER_SHARE = 0.12;
const BORROWER_SHARE = 0.4;

const ETH_GAS = 21_000n;
const TOKEN_GAS = 80_000n;
const POOL_GAS = 400_000n;

/** A bulk wallet's address: derived from the seed and its index (no key exists). */
export function bulkWalletAddress(seed: string, index: number): Address {
  return keccak256(toHex(`credit-devnet:${seed}:bulk:${index}`)).slice(0, 42) as Address;
}

/** A hub's address (an exchange's hot wallet): derived from the seed, the chain and its number. */
export function bulkHubAddress(seed: string, chainId: number, hub: number): Address {
  return keccak256(toHex(`credit-devnet:${seed}:bulk-hub:${chainId}:${hub}`)).slice(0, 42) as Address;
}

interface BulkAction {
  t: number;
  /** The wallet's own order among its actions (ties in time keep it). */
  seq: number;
  tx: Omit<BulkTransaction, 'nonce'>;
  /** Who is given ether or tokens by it (a transfer's recipient). */
  gets?: Address;
}

/** Sorted offsets in [0, 1) for `n` events of one wallet. */
function sortedFractions(rng: Rng, n: number): number[] {
  return Array.from({ length: n }, () => rng.next()).sort((a, b) => a - b);
}

/**
 * Schedules the bulk wallets of `size` (split over `scripts`' chains) on the scripts' timelines,
 * between `from` and `to` (seconds). The hubs are given ether (`anvil_setBalance`, no transaction)
 * and minted stablecoins (a transaction each) at `from`. Returns the number of transactions scheduled per chain.
 */
export function scheduleBulkPopulation(scripts: readonly ChainScript[], seed: string, size: number, from: number, to: number): number[] {
  const tokenAbi = ChainScript.tokenAbi();
  const poolAbi = ChainScript.poolAbi();
  const stables = ['DAI', 'USDC'];
  return scripts.map((script, c) => {
    const hubs = Array.from({ length: BULK_HUBS }, (_, h) => bulkHubAddress(seed, script.id, h));
    script.timeline.at(from, async () => {
      for (const hub of hubs) await script.writer.setBalance(hub, parseEther('1000000'));
    });
    for (const hub of hubs) for (const symbol of stables) script.mint(from + 1, symbol, hub, script.unit(symbol, '1000000000'));

    const wallets: number[] = [];
    for (let i = c; i < size; i += scripts.length) wallets.push(i);
    const actions: BulkAction[] = [];
    let seq = 0;
    const transfer = (to: Address, amount: bigint) => encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [to, amount] });
    for (const i of wallets) {
      const rng = new Rng(`${seed}:bulk:${i}`);
      const who = bulkWalletAddress(seed, i);
      const hub = hubs[rng.int(0, hubs.length - 1)]!;
      const partner = bulkWalletAddress(seed, wallets[rng.int(0, wallets.length - 1)]!);
      const symbol = rng.pick(stables);
      const other = stables.find((s) => s !== symbol)!;
      const units = rng.int(50, 5000);
      const amount = script.unit(symbol, String(units));
      const lender = rng.chance(LENDER_SHARE);
      const borrower = lender && rng.chance(BORROWER_SHARE);
      const pays = rng.chance(0.5);
      const steps: (Omit<BulkTransaction, 'nonce'> & { gets?: Address })[] = [
        { from: hub, to: who, value: parseEther('0.05') * BigInt(rng.int(1, 40)), gas: ETH_GAS, gets: who },
        { from: hub, to: script.addr(symbol), data: transfer(who, amount), gas: TOKEN_GAS, gets: who },
        {
          from: who,
          to: script.addr(symbol),
          data: transfer(partner, (amount * BigInt(rng.int(10, 40))) / 100n),
          gas: TOKEN_GAS,
          gets: partner,
        },
      ];
      if (pays) steps.push({ from: who, to: partner, value: parseEther('0.001') * BigInt(rng.int(1, 5)), gas: ETH_GAS, gets: partner });
      if (lender) {
        const supplied = amount / 2n;
        const approve = () => encodeFunctionData({ abi: tokenAbi, functionName: 'approve', args: [script.pool, maxUint256] });
        steps.push({ from: who, to: script.addr(symbol), data: approve(), gas: TOKEN_GAS });
        steps.push({
          from: who,
          to: script.pool,
          data: encodeFunctionData({ abi: poolAbi, functionName: 'supply', args: [script.addr(symbol), supplied, who, 0] }),
          gas: POOL_GAS,
        });
        if (borrower) {
          const loan = script.unit(other, String(Math.max(1, Math.floor(units / 8))));
          steps.push({
            from: who,
            to: script.pool,
            data: encodeFunctionData({ abi: poolAbi, functionName: 'borrow', args: [script.addr(other), loan, 2n, 0, who] }),
            gas: POOL_GAS,
          });
          steps.push({ from: who, to: script.addr(other), data: approve(), gas: TOKEN_GAS });
          steps.push({
            from: who,
            to: script.pool,
            data: encodeFunctionData({ abi: poolAbi, functionName: 'repay', args: [script.addr(other), loan, 2n, who] }),
            gas: POOL_GAS,
          });
        }
      }
      // the wallet's span: from a day after `from` to `to`, at least a day long
      const born = rng.uniform(from + DAY, to - DAY);
      const span = rng.uniform(DAY, to - born);
      const at = sortedFractions(rng, steps.length);
      steps.forEach(({ gets, ...tx }, k) => actions.push({ t: Math.floor(born + at[k]! * span), seq: seq++, tx, gets }));
    }
    actions.sort((a, b) => a.t - b.t || a.seq - b.seq);

    // Nonces in time order (each sender's transactions are mined in that order), then full blocks.
    const nonces = new Map<Address, number>();
    let block: BulkTransaction[] = [];
    let blockAt = 0;
    let gas = 0n;
    // anvil takes a block's transactions in its own order across senders (and checks a sender's
    // ether for gas against the mined state): a wallet given ether or tokens in the block being
    // filled sends nothing before that block is mined
    const funded = new Set<Address>();
    const flush = () => {
      const [txs, at] = [block, blockAt];
      script.timeline.at(at, () => script.writer.bulk(at, txs));
      block = [];
      gas = 0n;
      funded.clear();
    };
    for (const a of actions) {
      if (block.length === BULK_BLOCK_TXS || gas + a.tx.gas > BLOCK_GAS_BUDGET || funded.has(a.tx.from)) flush();
      if (block.length === 0) blockAt = a.t;
      const nonce = nonces.get(a.tx.from) ?? 0;
      nonces.set(a.tx.from, nonce + 1);
      block.push({ ...a.tx, nonce });
      gas += a.tx.gas;
      if (a.gets) funded.add(a.gets);
    }
    if (block.length > 0) flush();
    return actions.length;
  });
}
