import type { FastifyRequest } from 'fastify';

const ROUTE = Symbol('route');
type RoutedRequest = FastifyRequest & { [ROUTE]?: string | null };

/**
 * The route template a request matched (`/api/v2/score/address/:address`), undefined when none
 * did. Read once per request and kept on it: Fastify's `routeOptions` getter builds a new object
 * on every read, and the tracing and metrics hooks each need the route.
 */
export function routeOf(request: FastifyRequest): string | undefined {
  const routed = request as RoutedRequest;
  let route = routed[ROUTE];
  if (route === undefined) {
    route = request.routeOptions.url ?? null;
    routed[ROUTE] = route;
  }
  return route ?? undefined;
}
