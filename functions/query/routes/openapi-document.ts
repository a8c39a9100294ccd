import { json, type QueryRoute } from '../http.ts';
import { OPENAPI_DOCUMENT } from '../openapi.ts';
import { NoQuerySchema } from '../params.ts';
import { parseParams } from '../parse-params.ts';

/** `GET /v1/openapi.json`: the OpenAPI document of this API (docs/openapi.yaml, as JSON). */
export const openApiRoute: QueryRoute = {
  method: 'GET',
  path: '/v1/openapi.json',
  async handle(request) {
    parseParams(NoQuerySchema, request.query, 'query');
    return json(200, OPENAPI_DOCUMENT);
  },
};
