import type { StreamId } from '../../../shared/log/event-store.ts';
import { BadRequestError } from '../http-errors.ts';
import { openCursor, sealCursor, type CursorKey } from '../signed-cursor.ts';

// The commands list's `after` is opaque and authenticated, as the fleet list's cursor is
// (signed-cursor.ts): where the list stands — every command of the entries up to `after`, and the
// first `pods` pods of the decision at `after + 1` — bound to the Job or JobSet it was returned
// for. The MAC covers a purpose label too, so a fleet-list cursor can never pass for one of these (nor
// the reverse). A cursor the API did not issue, or issued for another object, is a 400 at
// `query.after` before the log is read.

/** Where a page of commands resumes. */
export interface CommandsPosition {
  /** Every command of the entries up to this log position has been listed. */
  readonly after: number;
  /** Pods of the decision at `after + 1` already listed (0: none of it). */
  readonly pods: number;
}

/**
 * A position, and for a Job its `spec.managedBy` (null: unset) as the first page found it: it
 * cannot change (the API server refuses to), so later pages take it from the signed cursor
 * instead of reading the Job's snapshot again.
 */
export interface CommandsCursor extends CommandsPosition {
  readonly managedBy?: string | null;
}

const VERSION = 1;
const PURPOSE = 'jobfold commands cursor\n';
const PARAM = 'query.after';

export function encodeCommandsCursor(key: CursorKey, stream: StreamId, cursor: CommandsCursor): string {
  const fields = { v: VERSION, k: stream.kind, u: stream.uid, a: cursor.after, p: cursor.pods, ...(cursor.managedBy === undefined ? {} : { m: cursor.managedBy }) };
  return sealCursor(key, fields, PURPOSE);
}

/** The position in `cursor`; BadRequestError at `query.after` when it cannot be used for `stream`. */
export function decodeCommandsCursor(key: CursorKey, stream: StreamId, cursor: string): CommandsCursor {
  const opened = openCursor(key, cursor, PURPOSE);
  if ('refusal' in opened) throw refused(opened.refusal);
  const parsed = parsePayload(opened.payload);
  if (parsed === undefined) throw refused('is not a cursor this API returned (or one of an older version: page again from the start)');
  if (parsed.k !== stream.kind || parsed.u !== stream.uid) {
    throw refused(`was returned for another ${parsed.k} (uid ${parsed.u}); page this one from the start`);
  }
  return { after: parsed.a, pods: parsed.p, ...(parsed.m === undefined ? {} : { managedBy: parsed.m }) };
}

/** A cursor that is well signed but does not fit the log (a store that lost entries), as a 400. */
export function refused(message: string): BadRequestError {
  return new BadRequestError([{ path: PARAM, message }]);
}

interface Payload { k: StreamId['kind']; u: string; a: number; p: number; m?: string | null }

function parsePayload(value: unknown): Payload | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { v, k, u, a, p, m } = value as Record<string, unknown>;
  if (v !== VERSION || (k !== 'Job' && k !== 'JobSet') || typeof u !== 'string') return undefined;
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(p) || (a as number) < 0 || (p as number) < 0) return undefined;
  if (m !== undefined && m !== null && typeof m !== 'string') return undefined;
  return { k, u, a: a as number, p: p as number, ...(m === undefined ? {} : { m }) };
}
