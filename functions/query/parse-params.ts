import type * as z from 'zod';
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

/** No parameter of any route is longer; a longer one is refused before its schema reads it. */
export const MAX_PARAM_CHARS = 8192;
/** Parameter names are echoed in errors up to this length. */
const MAX_NAME_CHARS = 64;

/**
 * What no schema should have to think about: text that is not well-formed Unicode (a lone
 * surrogate cannot be encoded as UTF-8, so it can never name a stored key), and values far
 * beyond any parameter's size. Each is reported at its own parameter.
 */
export function unreadableParams(value: unknown, where: Where): FieldIssue[] {
  if (typeof value !== 'object' || value === null) return [];
  const errors: FieldIssue[] = [];
  for (const [name, text] of Object.entries(value as Record<string, unknown>)) {
    const path = `${where}.${paramName(name)}`;
    if (LONE_SURROGATE.test(name)) errors.push({ path, message: `${where} parameter name is not well-formed Unicode (lone surrogate)` });
    if (typeof text !== 'string') continue;
    if (LONE_SURROGATE.test(text)) errors.push({ path, message: 'is not well-formed Unicode (lone surrogate)' });
    else if (text.length > MAX_PARAM_CHARS) errors.push({ path, message: `is ${text.length} characters long, at most ${MAX_PARAM_CHARS} allowed` });
  }
  return errors;
}

/** A parameter name as errors show it: lone surrogates replaced, long names cut (saying so). */
export function paramName(name: string): string {
  const shown = name.toWellFormed();
  return shown.length <= MAX_NAME_CHARS ? shown : `${shown.slice(0, MAX_NAME_CHARS)}…(${shown.length} characters)`;
}

const LONE_SURROGATE = /\p{Surrogate}/u;

function parseWith<T extends z.ZodType>(schema: T, value: unknown, where: Where): Parsed<z.output<T>> {
  const unreadable = unreadableParams(value, where);
  if (unreadable.length > 0) return { ok: false, errors: unreadable };
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: FieldIssue[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) errors.push({ path: `${where}.${paramName(key)}`, message: `unknown ${where} parameter` });
      continue;
    }
    errors.push({ path: [where, ...issue.path.map(String)].join('.'), message: issue.message });
  }
  return { ok: false, errors };
}
