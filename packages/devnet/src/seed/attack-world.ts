import { maxUint256, parseEther, type Address, type Hash, type LocalAccount } from 'viem';
import { DEFAULT_MNEMONIC } from '../anvil';
import type { DevnetWorld, StartDevnetOptions } from '../devnet';
import { ensAbi, ensRegisterArgs } from '../ens';
import { ChainScript } from './chain-script';
import { seedActors } from './seed-accounts';
import { seededAccount } from './seed-accounts';
import { DAY, GENESIS_YEARS_BEFORE_ANCHOR } from './time';

/** The attack world's "now": its chains' clock after seeding (the same every run). */
export const ATTACK_ANCHOR = 1_780_000_000 - (1_780_000_000 % DAY);
const SEED = 'attacks';

/** How a wallet of a twin pair lived before the attack (both twins alike). */
export type AttackProfile = 'plain' | 'borrower' | 'collateral_holder' | 'open_loan';

/** One attack as seeded: the wallet that attacks, its untouched twin, and what the attack cost besides gas. */
export interface SeededAttack {
  name: string;
  /** What the attacker did, in a sentence. */
  description: string;
  profile: AttackProfile;
  attacker: Address;
  control: Address;
  /** The transactions the attack took (their gas is a cost), by chain. */
  transactions: { chainId: number; hash: Hash }[];
  /** Transactions it would take afterwards to undo the attack (the capital returned), priced as the first of them. */
  undoTransactions: number;
  /** Principal borrowed × days, USD (its interest is a cost at the stated rate). */
  borrowedUsdDays: number;
  /** Capital brought in and held × days, USD (its cost at the stated rate; at least a day). */
  capitalUsdDays: number;
  /** Money paid away or fees at their stated price, USD. */
  feesUsd: number;
  /** What the identity providers say about the attacker (provider-stub fixtures), when the attack is about them. */
  identity?: {
    passport?: { score: string; stamps: string[] };
    poaps?: { name: string; date: string }[];
    farcaster?: string;
    lens?: string;
  };
}

export interface AttackWorld {
  anchor: number;
  /** USD per ETH the costs are priced at (the WETH feed's answer at seeding). */
  ethUsd: number;
  attacks: SeededAttack[];
}

const twin = (name: string, role: 'attacker' | 'control') => seededAccount(SEED, `${name}:${role}`);

/**
 * A devnet world for the attacks of issue 33: for each attack a pair of twin wallets with the same
 * history (funding 400 days before the anchor, transfers to a friend over the year and, by profile,
 * collateral supplied ten months ago and a loan); in the last days before the anchor the attacker of
 * each pair attacks and its twin does nothing, so the scores of the two at the anchor differ by what
 * the attack bought. Chain 1 (Ethereum, with ENS) holds the histories; chain 8453 (Base) the L2 attack.
 */
export async function seedAttackWorld(world: DevnetWorld, anchor = ATTACK_ANCHOR): Promise<AttackWorld> {
  const actors = seedActors(DEFAULT_MNEMONIC);
  const scoring = world.chains.filter((c) => c.spec.role === 'scoring');
  const scripts = await Promise.all(scoring.map((c) => ChainScript.create(c, world.contracts[c.spec.id]!, actors.deployer)));
  const main = scripts.find((s) => s.contracts.ens) ?? scripts[0]!;
  const l2 = scripts.find((s) => s !== main);
  const accomplice = seededAccount(SEED, 'accomplice');
  const ownSecond = seededAccount(SEED, 'second-wallet');
  const usd8 = (symbol: string) => main.prices[symbol]!;
  const ethUsd = Number(usd8('WETH')) / 1e8;
  /** `dollars` of `symbol` in base units at the seeding price. */
  const worth = (script: ChainScript, symbol: string, dollars: number) =>
    (BigInt(Math.round(dollars * 100)) * 10n ** BigInt(script.contracts.tokens[symbol]!.decimals) * 1_000_000n) / script.prices[symbol]!;
  const weth = main.contracts.lendingPool!.reserves.find((r) => r.symbol === 'WETH')!;

  // liquidity, and the accomplice's capital (held for a year: its own money, lent for the reading)
  const setupAt = anchor - 450 * DAY;
  main.mint(setupAt, 'DAI', actors.lp.address, main.unit('DAI', '50000000'));
  main.approvePool(setupAt + 10, actors.lp, 'DAI');
  main.supply(setupAt + 20, actors.lp, 'DAI', main.unit('DAI', '20000000'));
  main.fund(setupAt + 30, accomplice.address, '10');
  main.mint(setupAt + 40, 'USDC', accomplice.address, main.unit('USDC', '200000'));
  main.mint(setupAt + 50, 'WETH', accomplice.address, worth(main, 'WETH', 60_000));
  main.mint(setupAt + 60, 'DAI', accomplice.address, main.unit('DAI', '50000'));
  main.approvePool(setupAt + 70, accomplice, 'WETH');
  main.approvePool(setupAt + 80, accomplice, 'DAI');

  const attacks: SeededAttack[] = [];
  let offset = 0;
  /** Schedules a pair's common history; the twins act a second apart. */
  const pair = (name: string, profile: AttackProfile): [LocalAccount, LocalAccount] => {
    const attacker = twin(name, 'attacker');
    const control = twin(name, 'control');
    offset += 600;
    [attacker, control].forEach((who, k) => {
      const t = (daysAgo: number) => anchor - daysAgo * DAY + offset + k;
      main.fund(t(400), who.address, '2');
      main.mint(t(400) + 60, 'USDC', who.address, main.unit('USDC', '5000'));
      for (const daysAgo of [380, 250, 120, 45]) {
        main.timeline.at(t(daysAgo), () =>
          main.writer.send(who, t(daysAgo), { to: actors.friend.address, value: parseEther('0.01'), gas: 21_000n }),
        );
      }
      if (profile === 'plain') return;
      // collateral ten months ago: $20,000 of WETH (a borrower) or $30,000 (a holder of collateral)
      const collateralUsd = profile === 'collateral_holder' ? 30_000 : 20_000;
      main.mint(t(300), 'WETH', who.address, worth(main, 'WETH', collateralUsd));
      main.approvePool(t(300) + 10, who, 'WETH');
      main.approvePool(t(300) + 20, who, 'DAI');
      main.supply(t(300) + 30, who, 'WETH', worth(main, 'WETH', collateralUsd));
      if (profile === 'borrower') {
        // a loan to a health factor of 1.10, its proceeds spent
        const debt = Math.floor((collateralUsd * weth.liquidationThresholdBps) / 10_000 / 1.1);
        main.borrow(t(60), who, 'DAI', main.unit('DAI', String(debt)));
        main.transfer(t(60) + 10, who, 'DAI', actors.lp.address, main.unit('DAI', String(debt)));
      } else if (profile === 'open_loan') {
        // $10,000 owed for 200 days, the proceeds kept aside in DAI
        main.borrow(t(200), who, 'DAI', main.unit('DAI', '10000'));
      }
    });
    return [attacker, control];
  };
  const record = (
    attack: Omit<SeededAttack, 'transactions' | 'undoTransactions' | 'borrowedUsdDays' | 'capitalUsdDays' | 'feesUsd'> &
      Partial<SeededAttack>,
  ) => {
    const full: SeededAttack = { transactions: [], undoTransactions: 0, borrowedUsdDays: 0, capitalUsdDays: 0, feesUsd: 0, ...attack };
    attacks.push(full);
    return full;
  };
  /** Schedules a transaction of the attack and records its hash. */
  const step = (attack: SeededAttack, script: ChainScript, t: number, send: () => Promise<Hash>) =>
    script.timeline.at(t, async () => attack.transactions.push({ chainId: script.id, hash: await send() }));
  const tokenAbi = ChainScript.tokenAbi();
  const poolAbi = ChainScript.poolAbi();

  {
    const [attacker, control] = pair('stablecoin_parking', 'borrower');
    const a = record({
      name: 'stablecoin_parking',
      description:
        'a borrower at health factor 1.10 ($20,000 of WETH, $15,000 owed) is lent $100,000 of USDC by a second wallet ten minutes before the reading',
      profile: 'borrower',
      attacker: attacker.address,
      control: control.address,
      undoTransactions: 1,
      capitalUsdDays: 100_000,
    });
    step(a, main, anchor - 600, () =>
      main.callNow(
        anchor - 600,
        accomplice,
        main.addr('USDC'),
        tokenAbi,
        'transfer',
        [attacker.address, main.unit('USDC', '100000')],
        80_000n,
      ),
    );
  }
  {
    const [attacker, control] = pair('collateral_parking', 'borrower');
    const a = record({
      name: 'collateral_parking',
      description: 'the same borrower gets $50,000 of WETH supplied on its behalf by a second wallet ten minutes before the reading',
      profile: 'borrower',
      attacker: attacker.address,
      control: control.address,
      undoTransactions: 2,
      capitalUsdDays: 50_000,
    });
    step(a, main, anchor - 600, () =>
      main.callNow(anchor - 600, accomplice, main.pool, poolAbi, 'supply', [
        main.addr('WETH'),
        worth(main, 'WETH', 50_000),
        attacker.address,
        0,
      ]),
    );
  }
  {
    const [attacker, control] = pair('repayment_by_another_wallet', 'open_loan');
    const a = record({
      name: 'repayment_by_another_wallet',
      description:
        'a $10,000 loan owed for 200 days is repaid by a second wallet (the twin repays its own from the same DAI: the money moves alike, only the repayer differs)',
      profile: 'open_loan',
      attacker: attacker.address,
      control: control.address,
    });
    // the attacker hands its DAI to the second wallet, which repays for it; the twin repays itself
    step(a, main, anchor - 3_600, () =>
      main.callNow(
        anchor - 3_600,
        attacker,
        main.addr('DAI'),
        tokenAbi,
        'transfer',
        [accomplice.address, main.unit('DAI', '10000')],
        80_000n,
      ),
    );
    step(a, main, anchor - 3_000, () =>
      main.callNow(anchor - 3_000, accomplice, main.pool, poolAbi, 'repay', [main.addr('DAI'), maxUint256, 2n, attacker.address]),
    );
    main.timeline.at(anchor - 2_400, () =>
      main.poolCallNow(anchor - 2_400, control, 'repay', [main.addr('DAI'), maxUint256, 2n, control.address]),
    );
  }
  {
    const [attacker, control] = pair('short_loan_farming', 'collateral_holder');
    const a = record({
      name: 'short_loan_farming',
      description: 'a holder of $30,000 of collateral takes six $10,001 loans, each repaid a day later',
      profile: 'collateral_holder',
      attacker: attacker.address,
      control: control.address,
      borrowedUsdDays: 6 * 10_001,
    });
    for (let k = 0; k < 6; k++) {
      const t = anchor - (13 - 2 * k) * DAY;
      step(a, main, t, () =>
        main.poolCallNow(t, attacker, 'borrow', [main.addr('DAI'), main.unit('DAI', '10001'), 2n, 0, attacker.address]),
      );
      step(a, main, t + DAY, () => main.poolCallNow(t + DAY, attacker, 'repay', [main.addr('DAI'), maxUint256, 2n, attacker.address]));
    }
  }
  {
    const [attacker, control] = pair('cheap_attestations', 'plain');
    const today = new Date(anchor * 1000).toISOString().slice(0, 10);
    const a = record({
      name: 'cheap_attestations',
      description: 'a name registered yesterday, a passport scoring 5 (one stamp), a POAP of an event today, a Farcaster and a Lens handle',
      profile: 'plain',
      attacker: attacker.address,
      control: control.address,
      feesUsd: 5, // a year of a 5+ letter .eth name at ENS's price
      identity: {
        passport: { score: '5.00000', stamps: ['Google'] },
        poaps: [{ name: 'Cheap Meetup', date: today }],
        farcaster: 'cheapo',
        lens: 'cheapo',
      },
    });
    const ens = main.contracts.ens;
    if (ens) {
      step(a, main, anchor - DAY, () =>
        main.callNow(
          anchor - DAY,
          actors.deployer,
          ens.registrarController,
          ensAbi.registrarController(),
          'register',
          ensRegisterArgs(ens, 'cheapname', attacker.address, { address: attacker.address }),
          1_500_000n,
        ),
      );
    }
  }
  {
    const [attacker, control] = pair('self_transfers', 'plain');
    const a = record({
      name: 'self_transfers',
      description: 'fifty self-sends of ether and fifty transfers of USDC to itself over the last day',
      profile: 'plain',
      attacker: attacker.address,
      control: control.address,
    });
    for (let k = 0; k < 50; k++) {
      const t = anchor - DAY + k * 600;
      step(a, main, t, () => main.writer.send(attacker, t, { to: attacker.address, value: parseEther('0.01'), gas: 21_000n }));
      step(a, main, t + 300, () =>
        main.callNow(t + 300, attacker, main.addr('USDC'), tokenAbi, 'transfer', [attacker.address, main.unit('USDC', '100')], 80_000n),
      );
    }
  }
  if (l2) {
    const [attacker, control] = pair('l2_transfers', 'plain');
    const a = record({
      name: 'l2_transfers',
      description: 'bridged to an L2 (Base): thirty $1 USDC transfers to thirty fresh addresses',
      profile: 'plain',
      attacker: attacker.address,
      control: control.address,
      feesUsd: 30 + 5, // the dollars sent away, and a bridge deposit's fee
    });
    const t0 = anchor - 2 * DAY;
    l2.fund(t0, attacker.address, '0.01');
    l2.mint(t0 + 10, 'USDC', attacker.address, l2.unit('USDC', '30'));
    for (let k = 0; k < 30; k++) {
      const fresh = seededAccount(SEED, `l2-fresh:${k}`).address;
      const t = t0 + 600 + k * 60;
      step(a, l2, t, () => l2.callNow(t, attacker, l2.addr('USDC'), tokenAbi, 'transfer', [fresh, l2.unit('USDC', '1')], 80_000n));
    }
  }
  {
    const [attacker, control] = pair('wash_loop', 'plain');
    const a = record({
      name: 'wash_loop',
      description: 'twenty round trips of 0.1 ETH between the wallet and a second wallet of its own over the last day',
      profile: 'plain',
      attacker: attacker.address,
      control: control.address,
    });
    main.fund(anchor - 2 * DAY, ownSecond.address, '0.5');
    for (let k = 0; k < 20; k++) {
      const t = anchor - DAY + k * 1_200;
      step(a, main, t, () => main.writer.send(attacker, t, { to: ownSecond.address, value: parseEther('0.1'), gas: 21_000n }));
      step(a, main, t + 600, () => main.writer.send(ownSecond, t + 600, { to: attacker.address, value: parseEther('0.1'), gas: 21_000n }));
    }
  }

  await Promise.all(
    scripts.map(async (script) => {
      await script.timeline.play();
      await script.writer.finish();
    }),
  );
  return { anchor, ethUsd, attacks };
}

/**
 * startDevnet options for the attack world: genesis six years before the anchor, the seeding
 * above, the clock left at the anchor. `onSeeded` receives the seeded attacks (the world is never
 * saved: every run seeds afresh).
 */
export function attackDevnetOptions(onSeeded: (world: AttackWorld) => void): StartDevnetOptions {
  return {
    genesisTimestamp: ATTACK_ANCHOR - GENESIS_YEARS_BEFORE_ANCHOR * 365 * DAY,
    clockAt: ATTACK_ANCHOR,
    seed: async (world) => {
      onSeeded(await seedAttackWorld(world));
      return { cast: {}, population: [] };
    },
  };
}
