import type { z } from 'zod';
import { BadRequestError, type FieldIssue } from './http-errors.ts';
import type { QueryRequest } from './http.ts';
import { ObjectPathSchema, type ObjectPath } from './params.ts';

type Where = 'path' | 'query';
type Parsed<T> = { ok: true; data: T } | { ok: false; errors: FieldIssue[] };

/**
 * Parses request parameters at the boundary: returns the typed value, or throws
 * BadRequestError naming each bad field as `<where>.<field>` (`query.limit`, `path.name`).
 * An unknown query parameter is an error too, so a misspelt `limt` does not go unnoticed.
 */
export function parseParams<T extends z.ZodType>(schema: T, value: unknown, where: Where): z.output<T> {
  const parsed = parseWith(schema, value, where);
  if (!parsed.ok) throw new BadRequestError(parsed.errors);
  return parsed.data;
}

/** The path of a route about one object and its query, with the errors of both reported at once. */
export function parseObjectRequest<T extends z.ZodType>(
  request: QueryRequest,
  querySchema: T,
): { path: ObjectPath; query: z.output<T> } {
  const path = parseWith(ObjectPathSchema, request.pathParameters, 'path');
  const query = parseWith(querySchema, request.query, 'query');
  if (!path.ok || !query.ok) {
    throw new BadRequestError([...(path.ok ? [] : path.errors), ...(query.ok ? [] : query.errors)]);
  }
  return { path: path.data, query: query.data };
}

function parseWith<T extends z.ZodType>(schema: T, value: unknown, where: Where): Parsed<z.output<T>> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: FieldIssue[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) errors.push({ path: `${where}.${key}`, message: `unknown ${where} parameter` });
      continue;
    }
    errors.push({ path: [where, ...issue.path.map(String)].join('.'), message: issue.message });
  }
  return { ok: false, errors };
}
