import { createHmac, timingSafeEqual } from 'node:crypto';
import type { StreamId } from '../../shared/app/event-store.ts';
import { BadRequestError } from './http-errors.ts';

// The fleet list's `cursor` is opaque to clients and authenticated: the store's cursor and the
// filters it was made for, base64url-encoded, followed by an HMAC-SHA256 of exactly those bytes
// under the query function's cursor key (CURSOR_KEY, injected at the boundary). A cursor the
// API did not issue — forged, altered, truncated, or issued for other filters or the other list
// (Jobs or JobSets) — is refused as a 400 at `query.cursor` before the store ever sees it, so a
// client can never shape the store key a listing resumes from.

/** The list and the filters a cursor is bound to. */
export interface CursorFilters {
  readonly kind: StreamId['kind'];
  readonly cluster?: string;
  readonly namespace?: string;
  readonly condition?: string;
}

/** The secret cursors are signed with; at least 32 bytes. */
export type CursorKey = Uint8Array;

export const MIN_CURSOR_KEY_BYTES = 32;
const VERSION = 1;
const MAC_BYTES = 32;

export function encodeListCursor(key: CursorKey, filters: CursorFilters, storeCursor: string): string {
  const payload = Buffer.from(JSON.stringify({ v: VERSION, f: filterKey(filters), c: storeCursor }), 'utf8');
  return `${payload.toString('base64url')}.${mac(key, payload).toString('base64url')}`;
}

/** The store's cursor inside `cursor`; BadRequestError at `path` when it cannot be used. */
export function decodeListCursor(key: CursorKey, filters: CursorFilters, cursor: string, path = 'query.cursor'): string {
  const [body, signature, ...rest] = cursor.split('.');
  if (body === undefined || signature === undefined || rest.length > 0 || !BASE64URL.test(body) || !BASE64URL.test(signature)) {
    throw invalidCursor('is not a cursor this API returned', path);
  }
  const payload = Buffer.from(body, 'base64url');
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(key, payload))) {
    throw invalidCursor('is not a cursor this API returned (altered, truncated, or signed with another key)', path);
  }
  const parsed = parsePayload(payload);
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

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function mac(key: CursorKey, payload: Buffer): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

function filterKey(filters: CursorFilters): string {
  return JSON.stringify([filters.kind, filters.cluster ?? null, filters.namespace ?? null, filters.condition ?? null]);
}

function parsePayload(payload: Buffer): { f: string; c: string } | undefined {
  try {
    const value: unknown = JSON.parse(payload.toString('utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const record = value as Record<string, unknown>;
    if (record['v'] !== VERSION || typeof record['f'] !== 'string' || typeof record['c'] !== 'string') return undefined;
    return { f: record['f'], c: record['c'] };
  } catch {
    return undefined;
  }
}
