import { withSection } from '../calibration/model-card';
import { CHEAP_USD, MAX_CHEAP_POINTS, type AttackReport } from './run-attacks';

export const ATTACKS_BEGIN = '<!-- attacks:begin -->';
export const ATTACKS_END = '<!-- attacks:end -->';

const usd = (x: number) => `$${x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The attack table of docs/MODEL.md ("Attacks measured by cost"), from a run of `pnpm model:attacks`. */
export function renderAttacks(report: AttackReport): string {
  const a = report.assumptions;
  const rows = report.results.map((r) => {
    const moved = Object.entries(r.factorPoints)
      .filter(([, d]) => d !== 0)
      .map(([label, d]) => `${label} ${d > 0 ? '+' : ''}${d}`)
      .join(', ');
    return `| ${r.name} | ${r.description} | ${r.scores.control} → ${r.scores.attacker} | ${r.pointsGained > 0 ? '+' : ''}${r.pointsGained} | ${usd(r.spent.totalUsd)} (gas ${usd(r.spent.gasUsd)}, interest ${usd(r.spent.interestUsd)}, capital ${usd(r.spent.capitalUsd)}, fees ${usd(r.spent.feesUsd)}) | ${moved || '—'} | ${r.withinBound ? 'yes' : '**NO**'} |`;
  });
  return [
    ATTACKS_BEGIN,
    '<!-- Written by `pnpm model:attacks` from a run on the attack world. Do not edit by hand. -->',
    '',
    `Each attack is run on the devnet's attack world (\`packages/devnet/src/seed/attack-world.ts\`, anchored at ${report.anchor}): a pair of twin wallets with the same history, one of which attacks; the gain is the attacker's score less its twin's, both read through the wallet reader scoring uses and scored by andromeda_1.0. Costs: gas at ${Object.entries(
      a.gasGwei,
    )
      .map(([chain, gwei]) => `${gwei} gwei on chain ${chain}`)
      .join(
        ' and ',
      )}, ETH at ${usd(report.ethUsd)}; interest at ${a.borrowApr * 100} % a year on what was borrowed for the days owed; capital brought in at ${a.capitalApr * 100} % a year for a day at least; fees and money paid away at their price. The bound (\`tools/model-lab/test/model-attacks.devnet.spec.ts\`, every CI run): no attack gains more than ${MAX_CHEAP_POINTS} points for less than ${usd(CHEAP_USD)} spent.`,
    '',
    '| Attack | What it did | Score (twin → attacker) | Points gained | Spent | Factor points moved | Within the bound |',
    '|---|---|---|---:|---|---|---|',
    ...rows,
    ATTACKS_END,
  ].join('\n');
}

export const withAttacks = (markdown: string, section: string): string => withSection(markdown, section, ATTACKS_BEGIN, ATTACKS_END);
