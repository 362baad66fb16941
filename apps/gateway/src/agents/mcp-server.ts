import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { FastifyInstance } from 'fastify';
import { AGENT_TOOLS, httpCallOf, toolDescription } from '@credit/contracts/agent-tools';
import { DomainError, errorBody } from '@credit/contracts/errors';
import { HTTP_OPERATIONS, OPERATION_IDS, type OperationId, type Variant } from '@credit/contracts/http-operations';
import { isIdempotent, type SubjectName } from '@credit/contracts/subjects';
import { parseRequest } from '@credit/contracts/validate';
import { serverInstructions, type AgentDoc } from './agent-guide';
import { answerText } from './answer-text';
import { dispatchRest, type RestAnswer } from './rest-dispatch';

/** Who sent an MCP request, and the REST answers of the tool calls it made (their CU go on its response). */
export interface McpCaller {
  authorization: string;
  requestId: string;
  readonly answers: RestAnswer[];
}

/** What every MCP server of this gateway is made of, built once at boot. */
export interface McpServerParts {
  fastify: FastifyInstance;
  docs: AgentDoc[];
  version: string;
}

/**
 * The validator the SDK keeps for elicitation schemas (this server asks none): one for every server,
 * since each new server would otherwise build its own Ajv, most of a tool call's CPU.
 */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/**
 * The MCP server for one HTTP request (the stateless transport: a server per request, so no
 * request of one caller can meet another's): one tool per operation of the variant, its input
 * schema the production subject's request and its output schema the variant's reply (the schemas
 * REST and OpenAPI use), the docs as resources. A tool call runs the REST route in-process.
 */
export function mcpServerFor(variant: Variant, parts: McpServerParts, caller: McpCaller): McpServer {
  const server = new McpServer(
    { name: variant === 'sandbox' ? 'credit-scoring-sandbox' : 'credit-scoring', version: parts.version },
    { instructions: serverInstructions(variant === 'sandbox'), jsonSchemaValidator: SHARED_VALIDATOR },
  );
  argumentsCheckedByTools(server);
  for (const id of OPERATION_IDS) registerTool(server, id, variant, parts.fastify, caller);
  for (const doc of parts.docs) {
    server.registerResource(doc.name, doc.uri, { title: doc.title, description: doc.description, mimeType: 'text/markdown' }, (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: doc.text }],
    }));
  }
  return server;
}

function registerTool(server: McpServer, id: OperationId, variant: Variant, fastify: FastifyInstance, caller: McpCaller): void {
  const definition = HTTP_OPERATIONS[id].definitions[variant];
  server.registerTool(
    AGENT_TOOLS[id].tool,
    {
      title: AGENT_TOOLS[id].title,
      description: toolDescription(id, variant),
      inputSchema: HTTP_OPERATIONS[id].definitions.production.request,
      outputSchema: definition.reply as typeof HTTP_OPERATIONS.scoreAddress.definitions.production.reply,
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: isIdempotent(definition.subject as SubjectName),
        openWorldHint: false,
      },
    },
    async (args: Record<string, unknown>): Promise<CallToolResult> => {
      const answer = argumentsRefusal(id, args) ?? (await dispatchRest(fastify, httpCallOf(id, variant, args), caller));
      caller.answers.push(answer);
      return toolResult(answer);
    },
  );
}

/** A success: the REST body as structured content and text; a failure: a tool error whose text is the REST error body. */
function toolResult(answer: RestAnswer): CallToolResult {
  const json = JSON.stringify(answer.body);
  if (answer.status >= 400) return { isError: true, content: [{ type: 'text', text: json }], _meta: { http_status: answer.status } };
  const body = answer.body as Record<string, unknown>;
  return {
    structuredContent: body,
    content: [
      { type: 'text', text: answerText(body) },
      { type: 'text', text: json },
    ],
  };
}

/**
 * The SDK would refuse arguments that break a tool's input schema with its own message; the tool
 * refuses them instead (`argumentsRefusal`), with the code, status and body shape of the contracts'
 * error table, as REST refuses them, so an agent reads one error shape whichever way it asked. The
 * input schema stays the one listed, and the SDK version is pinned (this replaces a method of it).
 */
function argumentsCheckedByTools(server: McpServer): void {
  (server as unknown as { validateToolInput(tool: unknown, args: unknown): Promise<unknown> }).validateToolInput = (_tool, args) =>
    Promise.resolve(args ?? {});
}

/** Arguments the operation's request schema refuses: the error REST gives them (its status and body), before anything is sent or charged. */
function argumentsRefusal(id: OperationId, args: unknown): RestAnswer | undefined {
  try {
    parseRequest(HTTP_OPERATIONS[id].subjects.production, args);
    return undefined;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { status: error.status, body: errorBody(error), headers: {} };
  }
}
