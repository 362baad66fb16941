import { maxUint256, parseEther } from 'viem';
import { ensAbi, ensRegisterArgs, ethLabel } from '../ens';
import type { CastMember, CastRole } from '../state-file';
import type { ChainScript } from './chain-script';
import { seededAccount, type SeedActors } from './seed-accounts';
import { DAY } from './time';

/** Avatar of the ENS holder: an on-chain data: URI, so viem's getEnsAvatar resolves it offline. */
export const ENS_HOLDER_AVATAR = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#3b82f6"/><circle cx="32" cy="26" r="12" fill="#fff"/><rect x="14" y="42" width="36" height="16" rx="8" fill="#fff"/></svg>',
).toString('base64')}`;
/** The ENS holder's primary name. */
export const ENS_HOLDER_NAME = 'ada.eth';
/** Two more names registered to the ENS holder (address records pointing at it; not its primary name). */
export const ENS_HOLDER_OTHER_NAMES = ['ada-labs.eth', 'lovelace.eth'] as const;
/** Every name the ENS holder owns in the registry, its primary name first. */
export const ENS_HOLDER_NAMES = [ENS_HOLDER_NAME, ...ENS_HOLDER_OTHER_NAMES] as const;
/** Gas for a registration through the registrar controller (the avatar's text record is the largest). */
export const ENS_REGISTER_GAS = 1_500_000n;

export type Cast = Partial<Record<CastRole, CastMember>>;

/**
 * The cast's ETH dip, on the first scoring chain: ETH / USD at 2,400 from `from` until `to`, when
 * its start price is back (its liquidated wallet's story; t0 + 100 days of that story).
 */
export function castEthDip(anchor: number): { from: number; to: number } {
  const from = anchor - 600 * DAY;
  return { from, to: from + DAY };
}

/**
 * Schedules the cast's histories (issue 3) on the scoring chains' timelines; `anchor` is the anchor
 * ("now" of the history). The first script is chain 1, the second chain 8453.
 */
export function scheduleCast(scripts: readonly ChainScript[], seed: string, anchor: number, actors: SeedActors): Cast {
  const cast: Cast = {};
  const role = (name: CastRole) => seededAccount(seed, `cast:${name}`);
  const first = scripts[0]!;
  const second = scripts[1] ?? first;

  // A long-standing healthy borrower: 30 WETH of collateral for four years, twelve DAI loans repaid.
  {
    const who = role('healthy_borrower');
    cast.healthy_borrower = { address: who.address };
    const script = first;
    const t0 = anchor - 4 * 365 * DAY;
    script.fund(t0, who.address, '20');
    script.mint(t0 + 600, 'WETH', who.address, script.unit('WETH', '50'));
    script.approvePool(t0 + 1200, who, 'WETH');
    script.approvePool(t0 + 1300, who, 'DAI');
    script.supply(t0 + 1800, who, 'WETH', script.unit('WETH', '30'));
    for (let k = 0; k < 12; k++) {
      const t = t0 + (20 + k * 110) * DAY;
      const amount = script.unit('DAI', String(12_000 + k * 1_500));
      script.borrow(t, who, 'DAI', amount);
      script.repay(t + (30 + (k % 4) * 10) * DAY, who, 'DAI', amount);
    }
    // an active loan today, far from liquidation even after the shock
    script.borrow(anchor - 80 * DAY, who, 'DAI', script.unit('DAI', '20000'));
    script.transfer(anchor - 70 * DAY, who, 'WETH', actors.friend.address, script.unit('WETH', '1'));
  }

  // A wallet liquidated once: an ETH dip takes its health factor below 1.
  {
    const who = role('liquidated');
    cast.liquidated = { address: who.address };
    const script = first;
    const t0 = anchor - 700 * DAY;
    script.fund(t0, who.address, '5');
    script.mint(t0 + 600, 'WETH', who.address, script.unit('WETH', '8'));
    script.approvePool(t0 + 1200, who, 'WETH');
    script.approvePool(t0 + 1300, who, 'DAI');
    script.supply(t0 + 1800, who, 'WETH', script.unit('WETH', '8'));
    script.borrow(t0 + 10 * DAY, who, 'DAI', script.unit('DAI', '17500'));
    const dip = castEthDip(anchor);
    script.setPrice(dip.from, 'ETH / USD', 2_400n * 10n ** 8n);
    script.poolCall(dip.from + 3600, actors.liquidator, 'liquidationCall', [
      script.addr('WETH'),
      script.addr('DAI'),
      who.address,
      script.unit('DAI', '8750'),
      false,
    ]);
    script.setPrice(dip.to, 'ETH / USD', script.prices.WETH!);
    script.repay(dip.from + 10 * DAY, who, 'DAI', script.unit('DAI', '8750'));
    script.poolCall(dip.from + 11 * DAY, who, 'withdraw', [script.addr('WETH'), maxUint256, who.address]);
  }

  // An ENS name holder with an avatar (chain 1 holds ENS).
  {
    const who = role('ens_holder');
    const script = scripts.find((c) => c.contracts.ens) ?? first;
    cast.ens_holder = { address: who.address, ...(script.contracts.ens ? { ens: ENS_HOLDER_NAME } : {}) };
    const t0 = anchor - 900 * DAY;
    script.fund(t0, who.address, '3');
    script.mint(t0 + 600, 'USDC', who.address, script.unit('USDC', '2000'));
    if (script.contracts.ens) {
      const ens = script.contracts.ens;
      // The deployer registers the names through the registrar controller (NameRegistered carries
      // each label); the holder itself only sets its primary name.
      const register = (t: number, name: string, texts?: Record<string, string>) =>
        script.call(
          t,
          actors.deployer,
          ens.registrarController,
          ensAbi.registrarController(),
          'register',
          ensRegisterArgs(ens, ethLabel(name), who.address, { address: who.address, ...(texts ? { texts } : {}) }),
          ENS_REGISTER_GAS,
        );
      register(t0 + DAY, ENS_HOLDER_NAME, { avatar: ENS_HOLDER_AVATAR });
      script.call(t0 + DAY + 240, who, ens.reverseRegistrar, ensAbi.reverseRegistrar(), 'setName', [ENS_HOLDER_NAME], 1_500_000n);
      register(t0 + 150 * DAY + 3600, ENS_HOLDER_OTHER_NAMES[0]);
      register(t0 + 420 * DAY + 3600, ENS_HOLDER_OTHER_NAMES[1]);
    }
    script.transfer(anchor - 300 * DAY, who, 'USDC', cast.healthy_borrower!.address, script.unit('USDC', '500'));
  }

  // A wallet active on both scoring chains.
  {
    const who = role('multichain');
    cast.multichain = { address: who.address };
    for (const [i, script] of [first, second].entries()) {
      if (i === 1 && script === first) break;
      const t0 = anchor - (500 - i * 40) * DAY;
      script.fund(t0, who.address, '2');
      script.mint(t0 + 600, 'USDC', who.address, script.unit('USDC', '8000'));
      script.approvePool(t0 + 1200, who, 'USDC');
      script.approvePool(t0 + 1300, who, 'DAI');
      script.supply(t0 + DAY, who, 'USDC', script.unit('USDC', '5000'));
      script.borrow(t0 + 2 * DAY, who, 'DAI', script.unit('DAI', '2000'));
      script.repay(t0 + 40 * DAY, who, 'DAI', script.unit('DAI', '2000'));
      script.transfer(t0 + 60 * DAY, who, 'USDC', actors.lp.address, script.unit('USDC', '250'));
    }
  }

  // A brand-new wallet: one transaction, two days ago (its ether comes from anvil_setBalance, no history).
  {
    const who = role('new_wallet');
    cast.new_wallet = { address: who.address };
    const script = second;
    script.timeline.at(anchor - 2 * DAY, async () => {
      await script.writer.setBalance(who.address, parseEther('0.3'));
      await script.writer.send(
        who,
        anchor - 2 * DAY,
        { to: cast.multichain!.address, value: parseEther('0.05'), gas: 21_000n },
        'new wallet transfer',
      );
    });
  }

  // An address with no activity at all.
  cast.empty = { address: role('empty').address };

  return cast;
}
