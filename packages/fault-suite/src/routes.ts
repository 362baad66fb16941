import { HTTP_OPERATIONS, OPERATION_IDS, operationPath } from '@credit/contracts/http-operations';
import type { SubjectName } from '@credit/contracts/subjects';

/** Each operation's route as the router matches it: parameters are one segment, a trailing slash optional. */
const ROUTES = OPERATION_IDS.flatMap((id) =>
  (['production', 'sandbox'] as const).map((variant) => ({
    method: HTTP_OPERATIONS[id].method,
    subject: HTTP_OPERATIONS[id].subjects[variant],
    pattern: new RegExp(
      `^${operationPath(id, variant)
        .replace(/\/$/, '')
        .replace(/\{[a-z_]+\}/g, '[^/]+')}/?$`,
    ),
  })),
);

/** The subject behind a request: the route the router takes (it reads the path up to `?`, `;` or `#`). */
export function subjectOfRoute(method: string, path: string): SubjectName | undefined {
  const routed = path.split(/[?;#]/)[0]!;
  return ROUTES.find((r) => r.method === method && r.pattern.test(routed))?.subject;
}
