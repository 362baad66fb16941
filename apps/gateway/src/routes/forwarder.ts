import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { HTTP_OPERATIONS, type OperationId, type Variant } from '@credit/contracts/http-operations';
import type { SubjectName } from '@credit/contracts/subjects';
import { RpcClient } from '@credit/rpc/rpc-client';
import type { WithAuth } from '../auth/auth-context';
import { HTTP_INPUT } from './http-input';

/** Maps an HTTP request to its subject's request and sends it; the reply is the response body. */
@Injectable()
export class Forwarder {
  constructor(private readonly rpc: RpcClient) {}

  forward(variant: Variant, id: OperationId, req: FastifyRequest & WithAuth): Promise<unknown> {
    const subject: SubjectName = HTTP_OPERATIONS[id].subjects[variant];
    const request = HTTP_INPUT[id](req);
    return this.rpc.send(subject, request as never, { requestId: req.id });
  }
}
