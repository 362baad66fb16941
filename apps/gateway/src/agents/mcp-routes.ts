import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '@credit/contracts/errors';
import type { Variant } from '@credit/contracts/http-operations';
import { AuthenticateKey } from '../auth/authenticate-key';
import { readAgentDocs } from './agent-guide';
import { mcpServerFor, type McpCaller, type McpServerParts } from './mcp-server';
import type { RestAnswer } from './rest-dispatch';

/** The MCP endpoints (Streamable HTTP), one per variant. */
export const MCP_PATHS: Record<Variant, string> = { production: '/mcp', sandbox: '/mcp/sandbox' };

/**
 * `POST /mcp` and `POST /mcp/sandbox`: the MCP server over the Streamable HTTP transport in its
 * stateless form (no session; one JSON answer per POST). The bearer key is checked before the MCP
 * message is read: no valid key, 401 with `WWW-Authenticate: Bearer`. Each tool call then runs its
 * REST route in-process with the same key, so its CU, ledger lines, rate limit and errors are the
 * route's; the response carries the CU of its calls (`X-CU-Cost`, summed) and the last RateLimit state.
 * GET and DELETE are 405: a stateless server opens no stream and has no session to end.
 */
@Injectable()
export class McpRoutes implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly authenticateKey: AuthenticateKey,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const packageJson = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    const parts: McpServerParts = { fastify, docs: readAgentDocs(), version: packageJson.version };
    for (const [variant, url] of Object.entries(MCP_PATHS) as [Variant, string][]) {
      fastify.route({
        method: 'POST',
        url,
        onRequest: this.authenticate,
        handler: (request, reply) => this.serve(variant, parts, request, reply),
      });
      fastify.route({ method: ['GET', 'DELETE'], url, handler: notAllowed });
    }
    new Logger(McpRoutes.name).log(`MCP endpoints: ${Object.values(MCP_PATHS).join(', ')}`);
  }

  private readonly authenticate = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    try {
      await this.authenticateKey.execute(request.headers.authorization);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'unauthenticated')
        void reply.header('www-authenticate', 'Bearer realm="credit-api"');
      throw error;
    }
  };

  private async serve(variant: Variant, parts: McpServerParts, request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const caller: McpCaller = { authorization: request.headers.authorization!, requestId: request.id, answers: [] };
    const server = mcpServerFor(variant, parts, caller);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(webRequestOf(request), { parsedBody: request.body });
      void reply.status(response.status);
      response.headers.forEach((value, name) => void reply.header(name, value));
      setMeteringHeaders(reply, caller.answers);
      return await response.text();
    } finally {
      // Nothing is pending once the answer is read: the answer need not wait for the close.
      server.close().catch(() => undefined);
    }
  }
}

/** The Web `Request` the SDK's transport reads: the method, the URL and the headers (the body is already parsed). */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`http://${request.host}${request.url}`, { method: request.method, headers });
}

/** The CU the request's tool calls cost, summed, and the last answer's allowance and rate limit state. */
function setMeteringHeaders(reply: FastifyReply, answers: RestAnswer[]): void {
  const costs = answers.map((a) => a.headers['x-cu-cost']).filter((cost) => cost !== undefined);
  if (costs.length > 0) void reply.header('x-cu-cost', String(costs.reduce((sum, cost) => sum + Number(cost), 0)));
  for (const name of ['x-cu-remaining', 'ratelimit', 'ratelimit-policy'] as const) {
    const last = answers.findLast((a) => a.headers[name] !== undefined)?.headers[name];
    if (last !== undefined) void reply.header(name, last);
  }
}

function notAllowed(_request: FastifyRequest, reply: FastifyReply): never {
  void reply.header('allow', 'POST');
  throw new DomainError('method_not_allowed', 'The MCP endpoint is stateless: send JSON-RPC messages with POST');
}
