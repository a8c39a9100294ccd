import type { StreamId } from '../../shared/log/event-store.ts';
import { BadRequestError } from './http-errors.ts';
import { openCursor, sealCursor, type CursorKey } from './signed-cursor.ts';

// The fleet list's `cursor` is opaque to clients and authenticated (signed-cursor.ts): the
// store's cursor and the filters it was made for, signed under the query function's cursor key.
// A cursor the API did not issue — forged, altered, truncated, or issued for other filters or the other list
// (Jobs or JobSets) — is refused as a 400 at `query.cursor` before the store ever sees it, so a
// client can never shape the store key a listing resumes from.

/** The list and the filters a cursor is bound to. */
export interface CursorFilters {
  readonly kind: StreamId['kind'];
  readonly cluster?: string;
  readonly namespace?: string;
  readonly condition?: string;
}

export const MIN_CURSOR_KEY_BYTES = 32;
const VERSION = 1;

export function encodeListCursor(key: CursorKey, filters: CursorFilters, storeCursor: string): string {
  return sealCursor(key, { v: VERSION, f: filterKey(filters), c: storeCursor });
}

/** The store's cursor inside `cursor`; BadRequestError at `path` when it cannot be used. */
export function decodeListCursor(key: CursorKey, filters: CursorFilters, cursor: string, path = 'query.cursor'): string {
  const opened = openCursor(key, cursor);
  if ('refusal' in opened) throw invalidCursor(opened.refusal, path);
  const parsed = parsePayload(opened.payload);
  if (parsed === undefined) throw invalidCursor('is not a cursor this API returned', path);
  if (parsed.f !== filterKey(filters)) throw invalidCursor('was returned for other filters; repeat the filters of the first page', path);
  return parsed.c;
}

/** A store's own refusal of a cursor (RangeError from listJobs), as a 400. */
export function invalidCursor(message: string, path = 'query.cursor'): BadRequestError {
  return new BadRequestError([{ path, message }]);
}

/** The key from its configured text (CURSOR_KEY); throws naming the variable when too short. */
export function cursorKeyFrom(text: string | undefined, variable = 'CURSOR_KEY'): CursorKey {
  const key = Buffer.from(text ?? '', 'utf8');
  if (key.length < MIN_CURSOR_KEY_BYTES) {
    throw new Error(`${variable} must be set to a secret of at least ${MIN_CURSOR_KEY_BYTES} bytes (it signs list cursors)`);
  }
  return key;
}

function filterKey(filters: CursorFilters): string {
  return JSON.stringify([filters.kind, filters.cluster ?? null, filters.namespace ?? null, filters.condition ?? null]);
}

function parsePayload(value: unknown): { f: string; c: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (record['v'] !== VERSION || typeof record['f'] !== 'string' || typeof record['c'] !== 'string') return undefined;
  return { f: record['f'], c: record['c'] };
}
