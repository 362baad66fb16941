import { HTTP_OPERATIONS, OPERATION_IDS, operationPath, operationPrice, type OperationId } from '@credit/contracts/http-operations';
import { SUBJECTS, type ServiceName, type SubjectName } from '@credit/contracts/subjects';
import { parseReply, parseRequest } from '@credit/contracts/validate';
import { buildOpenApiDocument } from '@credit/gateway/openapi/openapi-document';
import { httpInput } from '@credit/gateway/routes/http-input';
import type { ServiceTable, SubjectDispatch } from '@credit/rpc/handler-table';
import { IdentityHandlers } from '@credit/identity/identity-handlers';
import { ReportsHandlers } from '@credit/reports/reports-handlers';
import { Clock } from '@credit/sandbox/clock';
import { SandboxHandlers } from '@credit/sandbox/sandbox-handlers';
import { ScoringHandlers } from '@credit/scoring/scoring-handlers';
import { OPERATION_CASES, caseRequest } from './operation-cases';

/**
 * Every operation of the contracts is whole (docs/ADDING-AN-OPERATION.md): its production service
 * and the sandbox each have a use case for it, the OpenAPI document lists both routes with their
 * prices, and the e2e cases hold a request for it, which the gateway turns into a request its
 * schema accepts and the sandbox's use case answers with a reply its schema accepts. The typed
 * handler tables and the case table already fail to compile without an entry; this holds when a
 * cast or a stale build slips past the compiler.
 */
const A = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const B = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

type Table = Record<string, SubjectDispatch>;
/** A service's handler table, built as its module's provider builds it; no handler runs here but the sandbox's. */
const tableOf = (provider: unknown, deps: unknown): Table =>
  Object.fromEntries((provider as { useFactory(deps: unknown): ServiceTable }).useFactory(deps).subjects);
const TABLES: Partial<Record<ServiceName, Table>> = {
  scoring: tableOf(ScoringHandlers, {}),
  reports: tableOf(ReportsHandlers, {}),
  identity: tableOf(IdentityHandlers, {}),
  sandbox: tableOf(SandboxHandlers, new Clock()),
};

/** What the gateway's routes hand `httpInput`. */
type FastifyRequest = Parameters<typeof httpInput>[1];

const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, Record<string, unknown>>> };

/** The case's request as Fastify hands it to the route: path parameters, query, parsed JSON body. */
function fastifyRequest(id: OperationId): FastifyRequest {
  const { path, body } = caseRequest(id, 'production', A, B);
  const [pathname, search] = path.split('?');
  const template = operationPath(id, 'production').split('/');
  const params = Object.fromEntries(
    pathname!
      .split('/')
      .map((segment, i) => [template[i]!, segment] as const)
      .filter(([name]) => name.startsWith('{'))
      .map(([name, segment]) => [name.slice(1, -1), segment]),
  );
  return { params, query: Object.fromEntries(new URLSearchParams(search ?? '')), body } as unknown as FastifyRequest;
}

describe('every operation is whole', () => {
  it('the e2e case table holds one case per operation and nothing else', () => {
    expect(Object.keys(OPERATION_CASES).sort()).toEqual([...OPERATION_IDS].sort());
  });

  it.each(OPERATION_IDS)('%s: its production service and the sandbox each have a handler for it', (id) => {
    for (const variant of ['production', 'sandbox'] as const) {
      const subject = HTTP_OPERATIONS[id].subjects[variant];
      const service = SUBJECTS[subject].service;
      expect([id, variant, service, typeof TABLES[service]?.[subject]]).toEqual([id, variant, service, 'function']);
    }
  });

  it.each(OPERATION_IDS)('%s: the OpenAPI document has both routes, each with its price and subject', (id) => {
    const op = HTTP_OPERATIONS[id];
    for (const variant of ['production', 'sandbox'] as const) {
      const entry = doc.paths[operationPath(id, variant)]?.[op.method.toLowerCase()];
      const price = operationPrice(id, variant);
      expect([id, variant, entry?.['x-credit-units'], entry?.['x-nats-subject']]).toEqual([id, variant, price, op.subjects[variant]]);
      const cost = price.kind === 'fixed' ? `${price.cu} CU` : `${price.cu} CU per address`;
      expect(entry?.['description']).toEqual(expect.stringContaining(`Cost: ${cost}`));
      expect(entry?.['summary']).toEqual(expect.stringContaining(op.summary));
    }
  });

  it.each(OPERATION_IDS)('%s: its case becomes a valid request, and the sandbox use case answers it with a valid reply', async (id) => {
    const { production, sandbox } = HTTP_OPERATIONS[id].subjects;
    const request = httpInput(HTTP_OPERATIONS[id], fastifyRequest(id));
    expect(() => parseRequest(production as SubjectName, request)).not.toThrow();
    // the sandbox's handler as its server calls it: the request parsed on the way in, the reply on the way out
    const reply = await TABLES.sandbox![sandbox]!(request, { subject: sandbox as SubjectName, requestId: undefined });
    expect(() => parseReply(sandbox as SubjectName, reply)).not.toThrow();
  });
});
