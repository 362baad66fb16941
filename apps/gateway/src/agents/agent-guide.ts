import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_TOOLS, priceText } from '@credit/contracts/agent-tools';
import { HTTP_OPERATIONS, OPERATION_IDS } from '@credit/contracts/http-operations';
import { MODEL_VERSION, RangeLabel } from '@credit/contracts/schemas/common';
import { CU_USD, PLANS, PLAN_NAMES } from '@credit/contracts/pricing';
import { Decile, FACTOR_LABELS, ScoreValue } from '@credit/contracts/schemas/score';

/**
 * What an agent is told about the API before it calls a tool: the MCP server's `instructions`
 * and `llms.txt` share these lines, every figure taken from the contracts.
 */
export function scoreLines(): string[] {
  return [
    `Scores (model ${MODEL_VERSION}) are integers from ${ScoreValue.minValue} to ${ScoreValue.maxValue}; higher is more creditworthy.`,
    `The decile (${Decile.minValue}–${Decile.maxValue}) places a score in the model's reference population; the range label is one of ${RangeLabel.options.join(', ')}.`,
    `Factors (include_factors) rate ${FACTOR_LABELS.join(', ')} with the same labels, the factor costing the score most first.`,
    'A wallet is a hex address or an ENS name; answers carry the checksummed address it resolves to.',
  ];
}

/** One line per operation: tool, what it costs. */
export function priceLines(): string[] {
  return OPERATION_IDS.map((id) => `${AGENT_TOOLS[id].tool}: ${priceText(HTTP_OPERATIONS[id].price)}`);
}

export function pricingLine(): string {
  const plans = PLAN_NAMES.map((name) => `${name} ${PLANS[name].monthlyCu ?? 'unlimited'}`).join(', ');
  return `Prices are in compute units (1 CU = ${CU_USD} USD), charged only for answers; monthly CU by plan: ${plans}.`;
}

/** The MCP server's instructions (production or sandbox). */
export function serverInstructions(sandbox: boolean): string {
  return [
    'On-chain credit scores, credit reports, portfolio values and identity attestations of EVM wallets.',
    ...scoreLines(),
    sandbox
      ? 'This is the sandbox: every tool is free and answers deterministic mock data (the same wallet always gets the same figures).'
      : `${pricingLine()} Per tool: ${priceLines().join('; ')}.`,
    'A failed call is a tool error whose text is the REST error body: `detail` or `error` says why; a rate limit or an exhausted ' +
      'allowance has detail.error rate_limited (wait detail.retry_after seconds) or credit_limit_exceeded.',
    'Resources: the model card (how a score is made) and the API reference.',
  ].join('\n');
}

/** A document an agent can read as an MCP resource. */
export interface AgentDoc {
  name: string;
  uri: string;
  title: string;
  description: string;
  text: string;
}

const DOCS = [
  {
    file: 'MODEL.md',
    name: 'model-card',
    title: 'Model card',
    description: 'How a score is made: features, bins, range bands, deciles, the boost',
  },
  {
    file: 'API.md',
    name: 'api-reference',
    title: 'API reference',
    description: 'The HTTP API: resources, endpoints, prices, errors, limits',
  },
];

/**
 * The model card and the API reference, read once at boot: from the repository's `docs/`, else
 * from `dist/agents/docs/`, where the build copies them for a deployed image (which has no
 * repository). A missing file fails the boot: an agent would be told of a resource it cannot read.
 */
export function readAgentDocs(): AgentDoc[] {
  const dirs = [join(__dirname, '..', '..', '..', '..', 'docs'), join(__dirname, 'docs')];
  return DOCS.map(({ file, ...doc }) => {
    const dir = dirs.find((d) => existsSync(join(d, file)));
    if (dir === undefined) throw new Error(`agent docs: ${file} not found in ${dirs.join(' or ')}`);
    return { ...doc, uri: `credit://docs/${file}`, text: readFileSync(join(dir, file), 'utf8') };
  });
}
