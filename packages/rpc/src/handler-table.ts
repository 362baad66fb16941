import { Controller, Inject, type InjectionToken, type Type } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, type NatsContext } from '@nestjs/microservices';
import { RPC_HEADERS } from '@credit/contracts/rpc-wire';
import {
  subjectsOf,
  type ParsedRequestOf,
  type ReplyOf,
  type ServiceName,
  type SubjectName,
  type SubjectOf,
} from '@credit/contracts/subjects';
import { parseReply, parseRequest } from '@credit/contracts/validate';

/** What a handler may know of the request besides its body: the NATS headers the gateway sets. */
export interface RequestContext {
  subject: SubjectName;
  requestId: string | undefined;
}

/** One subject's handler: the request arrives parsed by its schema; the reply is checked before it leaves. */
export type SubjectHandler<S extends SubjectName> = (
  request: ParsedRequestOf<S>,
  context: RequestContext,
) => ReplyOf<S> | Promise<ReplyOf<S>>;

/**
 * Every subject of one service, each with its handler. Typed from the contracts: a subject of the
 * service without a handler, or a key that is not one of its subjects, fails to compile.
 */
export type HandlerTable<Svc extends ServiceName> = { readonly [S in SubjectOf<Svc>]: SubjectHandler<S> };

/**
 * The Nest controller of a service: one message handler per subject of `service`, taken from the
 * table that `build` makes from the service's dependencies (the provider `depsToken`). Each
 * handler gets its request validated against the subject's schema, so an internal caller that
 * skips the gateway gets the same 4xx answers, and its reply is validated before it leaves.
 * Failures go through the service's RPC exception filter like any Nest handler's.
 */
export function handlerTableController<Svc extends ServiceName, Deps>(
  service: Svc,
  depsToken: InjectionToken,
  build: (deps: Deps) => HandlerTable<Svc>,
): Type<unknown> {
  class ServiceHandlers {
    readonly table: HandlerTable<Svc>;
    constructor(deps: Deps) {
      this.table = build(deps);
    }
  }
  Inject(depsToken)(ServiceHandlers, undefined, 0);
  for (const subject of subjectsOf(service)) {
    const handle = async function (this: ServiceHandlers, raw: unknown, nats?: NatsContext): Promise<unknown> {
      const handler = this.table[subject] as SubjectHandler<SubjectName>;
      const headers = nats?.getHeaders();
      const context: RequestContext = {
        subject,
        requestId: headers?.get(RPC_HEADERS.requestId) || undefined,
      };
      return parseReply(subject, await handler(parseRequest(subject, raw), context));
    };
    Object.defineProperty(handle, 'name', { value: subject });
    Object.defineProperty(ServiceHandlers.prototype, subject, { value: handle, writable: true, configurable: true });
    // Nest hands a handler its message context only through a parameter marked @Ctx().
    Payload()(ServiceHandlers.prototype, subject, 0);
    Ctx()(ServiceHandlers.prototype, subject, 1);
    MessagePattern(subject)(ServiceHandlers.prototype, subject, Object.getOwnPropertyDescriptor(ServiceHandlers.prototype, subject)!);
  }
  Object.defineProperty(ServiceHandlers, 'name', { value: `${service[0]!.toUpperCase()}${service.slice(1)}Handlers` });
  Controller()(ServiceHandlers);
  return ServiceHandlers;
}
