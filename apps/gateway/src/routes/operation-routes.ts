import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { HTTP_OPERATIONS, OPERATION_IDS, operationPath, type Variant } from '@credit/contracts/http-operations';
import { BillingHooks } from './billing-hooks';

const VARIANTS: Variant[] = ['production', 'sandbox'];

/** `/score/address/{address}` → `/score/address/:address` */
export function routePath(openApiPath: string): string {
  return openApiPath.replace(/\{([a-z_]+)\}/g, ':$1');
}

/**
 * The API's routes: one per operation of the contracts' HTTP table and variant, registered on
 * the Fastify instance under Nest (docs/decisions/0002), with its authentication, billing and
 * forwarding from `BillingHooks`. A failure is thrown, and Nest's exception layer gives it its docs/API.md §7 body like any other.
 */
@Injectable()
export class OperationRoutes implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly billing: BillingHooks,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    for (const variant of VARIANTS) {
      for (const id of OPERATION_IDS) {
        fastify.route({
          method: HTTP_OPERATIONS[id].method,
          url: routePath(operationPath(id, variant)),
          // No automatic HEAD twin: it would run the whole request unpriced.
          exposeHeadRoute: false,
          ...this.billing.of(id, variant),
        });
      }
    }
    new Logger(OperationRoutes.name).log(`${VARIANTS.length * OPERATION_IDS.length} operation routes registered`);
  }
}
