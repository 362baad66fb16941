import type { InjectionToken, Provider } from '@nestjs/common';
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
 * A subject's handler as the contract server calls it: the packet's raw `data` in, the reply
 * checked against its schema out (at once, or as a promise when the handler is asynchronous).
 * A request that breaks its schema, a failing handler and a reply that breaks its schema all
 * throw (or reject): the server answers each with its wire error.
 */
export type SubjectDispatch = (raw: unknown, context: RequestContext) => unknown;

/** The subjects a service answers and how: what `ContractNatsServer.serve` subscribes. */
export interface ServiceTable {
  readonly service: ServiceName;
  readonly subjects: ReadonlyMap<SubjectName, SubjectDispatch>;
}

/** The Nest provider token of a service's table, read by `startService`. */
export const SERVICE_TABLE: InjectionToken = Symbol('ServiceTable');

/**
 * The provider of a service's table: one handler per subject of `service`, from the table that
 * `build` makes from the service's dependencies (the provider `depsToken`). Each handler gets its
 * request validated against the subject's schema, so an internal caller that skips the gateway
 * gets the same 4xx answers, and its reply is validated before it leaves.
 */
export function handlerTableProvider<Svc extends ServiceName, Deps>(
  service: Svc,
  depsToken: InjectionToken,
  build: (deps: Deps) => HandlerTable<Svc>,
): Provider<ServiceTable> {
  return { provide: SERVICE_TABLE, inject: [depsToken], useFactory: (deps: Deps) => serviceTable(service, build(deps)) };
}

/** `table` as the server calls it: each subject's request parsed on the way in, its reply on the way out. */
export function serviceTable<Svc extends ServiceName>(service: Svc, table: HandlerTable<Svc>): ServiceTable {
  const subjects = new Map<SubjectName, SubjectDispatch>();
  for (const subject of subjectsOf(service)) {
    const handler = table[subject] as SubjectHandler<SubjectName>;
    subjects.set(subject, (raw, context) => {
      const reply = handler(parseRequest(subject, raw), context);
      return reply instanceof Promise ? reply.then((value: unknown) => parseReply(subject, value)) : parseReply(subject, reply);
    });
  }
  return { service, subjects };
}
