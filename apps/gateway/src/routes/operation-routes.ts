import { Controller, Get, HttpCode, Inject, Post, Req, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  HTTP_OPERATIONS,
  OPERATION_IDS,
  operationPath,
  type OperationId,
  type Variant,
} from '@credit/contracts/http-operations';
import { Forwarder } from './forwarder';

export const OPERATION = 'credit:operation';
export interface OperationMeta {
  id: OperationId;
  variant: Variant;
}

/** `/score/address/{address}` → `/score/address/:address` */
export function routePath(openApiPath: string): string {
  return openApiPath.replace(/\{([a-z_]+)\}/g, ':$1');
}

/**
 * A controller with one route per operation of contracts' HTTP table for one variant. Each route
 * carries its operation as metadata (for pricing and metering) and answers 200 on success, POST
 * included (SPEC §7).
 */
export function operationRoutes(variant: Variant) {
  @Controller()
  class OperationRoutes {
    constructor(@Inject(Forwarder) readonly forwarder: Forwarder) {}
  }
  Object.defineProperty(OperationRoutes, 'name', { value: `${variant[0]!.toUpperCase()}${variant.slice(1)}Routes` });

  for (const id of OPERATION_IDS) {
    const op = HTTP_OPERATIONS[id];
    const handler = function (this: OperationRoutes, req: FastifyRequest) {
      return this.forwarder.forward(variant, id, req);
    };
    Object.defineProperty(handler, 'name', { value: id });
    Object.defineProperty(OperationRoutes.prototype, id, { value: handler, writable: true, configurable: true });
    const descriptor = Object.getOwnPropertyDescriptor(OperationRoutes.prototype, id)!;
    const method = op.method === 'GET' ? Get : Post;
    method(routePath(operationPath(id, variant)))(OperationRoutes.prototype, id, descriptor);
    HttpCode(200)(OperationRoutes.prototype, id, descriptor);
    SetMetadata(OPERATION, { id, variant } satisfies OperationMeta)(OperationRoutes.prototype, id, descriptor);
    Req()(OperationRoutes.prototype, id, 0);
  }
  return OperationRoutes;
}

export const ProductionRoutes = operationRoutes('production');
export const SandboxRoutes = operationRoutes('sandbox');
