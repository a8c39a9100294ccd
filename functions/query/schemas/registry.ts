import * as z from 'zod';

/**
 * The response schemas of the query API, by component name. openapi.ts emits each once under
 * `components.schemas` and refers to it with `$ref`; tests parse every response with them, so
 * the document and the responses cannot drift apart.
 */
export const apiSchemas = z.registry<{ id: string; description?: string }>();
