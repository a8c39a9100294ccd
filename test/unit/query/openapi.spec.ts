import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { OPENAPI_DOCUMENT } from '../../../functions/query/openapi.ts';
import { QUERY_ROUTES } from '../../../functions/query/route-table.ts';
import { queryClient } from './support/query-client.ts';

// Given the route table and the OpenAPI document, then each describes the other exactly, every
// reference resolves, and the document is served as JSON.

type Json = Record<string, any>;
const paths = OPENAPI_DOCUMENT['paths'] as Json;
const components = OPENAPI_DOCUMENT['components'] as Json;

/** Every `$ref` anywhere in a value. */
function refs(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refs);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => (key === '$ref' && typeof item === 'string' ? [item] : refs(item)));
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1', () => {
    expect(OPENAPI_DOCUMENT['openapi']).toBe('3.1.0');
  });

  it('describes exactly the routes the handler serves, with their methods', () => {
    const documented = Object.entries(paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    const served = QUERY_ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(documented.sort()).toEqual(served.sort());
  });

  it('gives every operation a unique operationId, a 200 and a 500', () => {
    const operations = Object.values(paths).flatMap((item) => Object.values(item as Json)) as Json[];
    expect(new Set(operations.map((op) => op['operationId'])).size).toBe(operations.length);
    for (const op of operations) expect(Object.keys(op['responses'])).toEqual(expect.arrayContaining(['200', '500']));
  });

  it('names every path parameter of every templated path', () => {
    for (const [path, item] of Object.entries(paths)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (((item as Json)['get'] ?? (item as Json)['post'])['parameters'] ?? []).map((p: Json) =>
        p['$ref'] ? components['parameters'][p['$ref'].split('/').at(-1)] : p,
      ).filter((p: Json) => p['in'] === 'path').map((p: Json) => p['name']);
      expect(declared).toEqual(names);
    }
  });

  it('resolves every $ref to a component', () => {
    for (const ref of refs(OPENAPI_DOCUMENT)) {
      const [, , section, name] = ref.split('/');
      expect(components[section ?? '']?.[name ?? ''], ref).toBeDefined();
    }
  });

  it('is served at GET /v1/openapi.json', async () => {
    const get = queryClient({ store: new InMemoryEventStore(), config: DEFAULT_FOLD_CONFIG });
    const { status, body } = await get('/v1/openapi.json');
    expect(status).toBe(200);
    expect(body).toEqual(JSON.parse(JSON.stringify(OPENAPI_DOCUMENT)));
  });
});
