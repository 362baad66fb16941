import { ensAbi, ensRegisterArgs, ethLabel } from '../ens';
import { ENS_REGISTER_GAS } from './cast';
import type { ChainScript } from './chain-script';
import type { PopulationEntry } from './population-entry';
import { Rng } from './rng';
import type { SeedActors } from './seed-accounts';
import { DAY } from './time';

/**
 * Names registered to population wallets of the ENS chain, one group per wallet: the first wallet
 * chosen owns two names, the next two one each. The wallets are drawn from the seed
 * (`assignPopulationEns`); `PopulationEntry.ens` records who owns what.
 */
export const POPULATION_ENS_NAMES: readonly (readonly string[])[] = [['hopper.eth', 'cobol.eth'], ['noether.eth'], ['turing.eth']];

/**
 * Registers `POPULATION_ENS_NAMES` to wallets of the ENS chain drawn from the seed (a generator of
 * its own, so the rest of the population is as without it): the deployer registers each name
 * through the registrar controller, with an address record pointing at the owner, two days and an
 * hour and a half after the wallet's funding (the wallet itself sends nothing). Records the names
 * in the entries' `ens`. Fewer wallets on the ENS chain than groups: the first groups only.
 */
export function assignPopulationEns(
  scripts: readonly ChainScript[],
  seed: string,
  population: readonly PopulationEntry[],
  actors: Pick<SeedActors, 'deployer'>,
): void {
  const script = scripts.find((s) => s.contracts.ens);
  const ens = script?.contracts.ens;
  if (!script || !ens) return;
  const rng = new Rng(`${seed}:population:ens`);
  const candidates = population.filter((p) => p.chainId === script.id);
  for (const names of POPULATION_ENS_NAMES) {
    if (candidates.length === 0) break;
    const entry = candidates.splice(rng.int(0, candidates.length - 1), 1)[0]!;
    entry.ens = [...names];
    names.forEach((name, k) => {
      const t = entry.firstActivity + 2 * DAY + 5400 + k * 7 * DAY;
      script.call(
        t,
        actors.deployer,
        ens.registrarController,
        ensAbi.registrarController(),
        'register',
        ensRegisterArgs(ens, ethLabel(name), entry.address, { address: entry.address }),
        ENS_REGISTER_GAS,
      );
    });
  }
}
