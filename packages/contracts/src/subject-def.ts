import type { z } from 'zod';
import type { RequestErrorMap } from './request-errors';

/** The queue group each service subscribes in; replicas of one service share its load. */
export type ServiceName = 'scoring' | 'reports' | 'identity' | 'sandbox' | 'payments';

export interface SubjectDef<Req extends z.ZodType = z.ZodType, Rep extends z.ZodType = z.ZodType, Svc extends ServiceName = ServiceName> {
  readonly subject: string;
  /** Kept as its literal type: a service's handler table is typed from it. */
  readonly service: Svc;
  readonly request: Req;
  readonly reply: Rep;
  /** How long a caller waits for the reply before giving up (504 at the gateway). */
  readonly timeoutMs: number;
  /**
   * How long one attempt waits before the client asks again, on an idempotent subject (a read:
   * asking twice changes nothing). A replica killed with the request in hand never answers; the
   * next attempt reaches another replica, or the restarted one, within `timeoutMs`, and a late
   * reply to an earlier attempt still counts. Omitted on a subject that must not run twice: it is
   * sent once and waits the whole `timeoutMs`.
   */
  readonly attemptTimeoutMs?: number;
  /** Which request failures get which error code; unlisted fields are `invalid_parameter`. */
  readonly requestErrors?: RequestErrorMap;
  /** A subject with no HTTP route of its own: services call it among themselves, or the gateway on the way to one. */
  readonly internal?: true;
  readonly description: string;
}

/** Keeps a subject's literal service and schema types, which the handler tables are typed from. */
export function def<Req extends z.ZodType, Rep extends z.ZodType, Svc extends ServiceName>(
  d: SubjectDef<Req, Rep, Svc>,
): SubjectDef<Req, Rep, Svc> {
  return d;
}
