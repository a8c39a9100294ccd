import httpRouterHandler from '@middy/http-router';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { BadRequestError, MethodNotAllowedError, RouteNotFoundError } from './http-errors.ts';
import { malformedQueryEscapes, toQueryRequest, type QueryDeps, type QueryRoute } from './http.ts';
import { paramName } from './parse-params.ts';

/**
 * Routes payload 2.0 events with @middy/http-router. A path no route has is a 404; a path that
 * a route has under another method is a 405 listing the allowed methods (the router itself
 * cannot tell the two apart, so its not-found hook checks the templates).
 */
export function createRouter(routes: readonly QueryRoute[], deps: QueryDeps) {
  const templates = routes.map((route) => ({ method: route.method, pattern: templatePattern(route.path) }));
  return httpRouterHandler<APIGatewayProxyEventV2, APIGatewayProxyResultV2>({
    routes: routes.map((route) => ({
      method: route.method,
      path: route.path,
      handler: (event: APIGatewayProxyEventV2) => {
        const malformed = malformedQueryEscapes(event.rawQueryString);
        if (malformed.length > 0) {
          throw new BadRequestError(malformed.map((name) => ({
            path: `query.${paramName(name)}`,
            message: 'is not valid percent-encoded UTF-8',
          })));
        }
        return route.handle(toQueryRequest(event), deps);
      },
    })),
    notFoundResponse: ({ method, path }) => {
      const allowed = [...new Set(templates.filter((t) => t.pattern.test(path)).map((t) => t.method))];
      if (allowed.length > 0) throw new MethodNotAllowedError(method, path, allowed);
      throw new RouteNotFoundError(method, path);
    },
  });
}

/** `/v1/jobs/{name}` → /^\/v1\/jobs\/[^/]+\/?$/, as the router matches templates. */
function templatePattern(template: string): RegExp {
  const escaped = template
    .split(/\{[^/]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${escaped}/?$`);
}
