import type { StreamId } from '../../shared/app/event-store.ts';
import { BadRequestError } from './http-errors.ts';

// The fleet list's `cursor` is opaque to clients: the store's cursor and the filters it was
// made for, base64url-encoded. A cursor used with other filters (or the other list: Jobs or
// JobSets) would resume a different listing (in DynamoDB, a different index), so it is refused
// instead of silently misread.

/** The list and the filters a cursor is bound to. */
export interface CursorFilters {
  readonly kind: StreamId['kind'];
  readonly cluster?: string;
  readonly namespace?: string;
  readonly condition?: string;
}

export function encodeListCursor(filters: CursorFilters, storeCursor: string): string {
  const payload = { f: filterKey(filters), c: storeCursor };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** The store's cursor inside `cursor`; BadRequestError at `query.cursor` when it cannot be used. */
export function decodeListCursor(filters: CursorFilters, cursor: string): string {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    payload = undefined;
  }
  if (!isPayload(payload)) throw invalidCursor('is not a cursor this API returned');
  if (payload.f !== filterKey(filters)) throw invalidCursor('was returned for other filters; repeat the filters of the first page');
  return payload.c;
}

/** A store's own refusal of a cursor (RangeError from listJobs), as a 400. */
export function invalidCursor(message: string): BadRequestError {
  return new BadRequestError([{ path: 'query.cursor', message }]);
}

function filterKey(filters: CursorFilters): string {
  return JSON.stringify([filters.kind, filters.cluster ?? null, filters.namespace ?? null, filters.condition ?? null]);
}

function isPayload(value: unknown): value is { f: string; c: string } {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record['f'] === 'string' && typeof record['c'] === 'string';
}
