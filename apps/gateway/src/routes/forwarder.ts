import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { HTTP_OPERATIONS, type OperationId, type Variant } from '@credit/contracts/http-operations';
import { SUBJECTS, type SubjectName } from '@credit/contracts/subjects';
import { RpcClient } from '@credit/rpc/rpc-client';
import { AUTH_CONTEXT, type WithAuth } from '../auth/auth-context';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { AccountLanes } from './account-lanes';
import { HTTP_INPUT } from './http-input';

/**
 * Maps an HTTP request to its subject's request and sends it, in its caller's lane (its account,
 * or for an x402 caller its client address): the reply is the response body. A request may wait
 * in its lane as long as it may wait for its answer (its subject's timeout); the answer's own
 * timeout starts when it is sent.
 */
@Injectable()
export class Forwarder {
  constructor(
    private readonly rpc: RpcClient,
    private readonly lanes: AccountLanes,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  forward(variant: Variant, id: OperationId, req: FastifyRequest & WithAuth): Promise<unknown> {
    const subject: SubjectName = HTTP_OPERATIONS[id].subjects[variant];
    const request = HTTP_INPUT[id](req);
    const owner = req[AUTH_CONTEXT]?.account.id ?? `client:${req.ip}`;
    const waitMs = Math.min(SUBJECTS[subject].timeoutMs, this.config.RPC_TIMEOUT_MS ?? Infinity);
    return this.lanes.run(owner, waitMs, () => this.rpc.send(subject, request as never, { requestId: req.id }));
  }
}
