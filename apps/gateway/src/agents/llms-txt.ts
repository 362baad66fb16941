import { AGENT_TOOLS, priceText } from '@credit/contracts/agent-tools';
import { HTTP_OPERATIONS, OPERATION_IDS, SANDBOX_PREFIX, operationPath } from '@credit/contracts/http-operations';
import { pricingLine, scoreLines } from './agent-guide';
import { MCP_PATHS } from './mcp-routes';

/**
 * `GET /llms.txt` (llmstxt.org): what an agent needs to call the API, in Markdown: the scores in a
 * few lines, the MCP endpoints, the TypeScript client, and every operation with its route, tool,
 * client method and price, all generated from the contracts.
 */
export function buildLlmsTxt(): string {
  const operations = OPERATION_IDS.map((id) => {
    const op = HTTP_OPERATIONS[id];
    const tool = AGENT_TOOLS[id];
    return `- \`${op.method} ${operationPath(id, 'production')}\`: ${op.summary}. MCP tool \`${tool.tool}\`, SDK \`${tool.method}\`; ${priceText(op.price)}.`;
  });
  return [
    '# Credit Scoring API',
    '',
    '> On-chain credit scores, credit reports, portfolio values and identity attestations of EVM wallets, over REST, MCP ' +
      'and a typed TypeScript client.',
    '',
    ...scoreLines(),
    pricingLine(),
    '',
    '## Access',
    '',
    '- REST: `Authorization: Bearer <API key>`; or, with no key, pay a production request in USDC over x402 (answer its 402).',
    `- MCP (Streamable HTTP, stateless JSON): \`POST ${MCP_PATHS.production}\` (metered like REST), \`POST ${MCP_PATHS.sandbox}\` ` +
      '(free mock data); the same bearer key. Errors are tool errors carrying the REST error body.',
    '- TypeScript: `npm install @credit/sdk`, then `createCreditClient({ baseUrl, apiKey })` (`sandbox: true` for the ' +
      'sandbox; or `fetch: payingFetch({ account, networks })` from `@credit/sdk/x402` to pay per request with a viem ' +
      'account); one method per operation, e.g. `getCreditScore({ address })`.',
    `- Every production route has a free mirror under \`${SANDBOX_PREFIX}/\` with deterministic mock data.`,
    '',
    '## Operations',
    '',
    ...operations,
    '',
    '## Docs',
    '',
    '- [OpenAPI document](/openapi.json): every route, schema and error',
    '- [API reference](/docs): the same, browsable',
    '',
  ].join('\n');
}
