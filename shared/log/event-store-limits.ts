import { StoreLimitError } from './event-store.ts';
import type { CommitInput, NewEntry, Snapshot } from './event-store.ts';

// The limits every EventStore enforces the same way, so the in-memory store rejects exactly
// what DynamoDB would. Sizes are UTF-8 bytes of the JSON text, measured before compression.

/** Largest event body; a DynamoDB item is at most 400 KB and bodies are stored inline. */
export const MAX_ENTRY_BODY_BYTES = 350_000;
/** Outbox commands per commit. */
export const MAX_COMMIT_COMMANDS = 32;
/**
 * Entries plus command details per commit; a DynamoDB transaction is at most 4 MB. Every entry
 * counts whole, as its log page stores it (pagedEntryBytes): pages are compressed, so what
 * passes here is at most ~3 MB of page items (≤ ~20 of them) and always one transaction.
 */
export const MAX_COMMIT_BYTES = 3_000_000;
/** Largest command detail; an EventBridge entry is at most 256 KiB with its envelope. */
export const MAX_COMMAND_DETAIL_BYTES = 240 * 1024;
/** Longest eventId or commandId; ids are part of DynamoDB keys (at most 1 KB). */
export const MAX_ID_BYTES = 512;
/**
 * Largest snapshot state (a 100,000-pod Job with every pod live is ~35 MB of JSON). The writer
 * never sends a larger one: it commits without it and reports `snapshotSkipped`, which the
 * handler logs as an error with a metric (the log stays the truth; loads just read further).
 */
export const MAX_SNAPSHOT_STATE_BYTES = 64 * 1024 * 1024;

const encoder = new TextEncoder();
/** The largest seq a store key holds (12 digits) and a chain hash's length, for sizing. */
const MAX_SEQ = 999_999_999_999;
const HASH_PLACEHOLDER = '0'.repeat(64);

/** Returns the JSON text of a value; `undefined` is stored as `null`. */
export function toJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** Returns the UTF-8 size of a value's JSON text (counted, not encoded: a lone surrogate is 3 bytes, as encoding makes it). */
export function jsonBytes(value: unknown): number {
  return textBytes(toJson(value));
}

/** The UTF-8 size of a JSON text already made (toJson). */
export function textBytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * An entry body's JSON text (toJson), made once per body: a commit measures each body twice
 * (commitSteps, checkCommit) and its log page stores the same text (a pod's is ~1 KB). Bodies
 * are never changed once planned: their chain hashes are computed from them before they are
 * stored, and each plan makes its entries' bodies anew.
 */
export function bodyJson(body: unknown): string {
  if (typeof body !== 'object' || body === null) return toJson(body);
  let text = BODY_TEXTS.get(body);
  if (text === undefined) BODY_TEXTS.set(body, (text = toJson(body)));
  return text;
}

const BODY_TEXTS = new WeakMap<object, string>();

/** Returns a deep copy as it reads back from storage (JSON round trip). */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(toJson(value)) as T;
}

/**
 * Throws StoreLimitError when an entry is too large to store, RangeError for an empty id;
 * returns each body's size (so a commit check measures every body once).
 */
function checkedBodyBytes(entries: readonly NewEntry[]): number[] {
  return entries.map((entry) => {
    checkId('eventId', entry.eventId);
    const size = textBytes(bodyJson(entry.body));
    if (size > MAX_ENTRY_BODY_BYTES) {
      throw new StoreLimitError(`body of event ${entry.eventId} (bytes)`, MAX_ENTRY_BODY_BYTES, size);
    }
    return size;
  });
}

/**
 * The bytes a commit counts for one entry towards MAX_COMMIT_BYTES: the entry as
 * its page stores it (with seq, recordedAt and hash), before compression. A writer that keeps
 * the sum of these plus its command details under MAX_COMMIT_BYTES never meets StoreLimitError.
 */
export function pagedEntryBytes(entry: NewEntry, recordedAt: string): number {
  return pagedEntryBytesWith(entry, recordedAt, leftOutOfJson(entry.body) ? 0 : textBytes(bodyJson(entry.body)));
}

/**
 * pagedEntryBytes for a caller that measured the body (jsonBytes) already: the same JSON text is
 * the entry without its body plus `"body":<body>,`. A body JSON.stringify leaves out (undefined,
 * a function) is measured whole.
 */
export function pagedEntryBytesWith(entry: NewEntry, recordedAt: string, bodyBytes: number): number {
  const { eventId, type, observedAt, body } = entry;
  if (leftOutOfJson(body)) return jsonBytes({ eventId, type, observedAt, body, seq: MAX_SEQ, recordedAt, hash: HASH_PLACEHOLDER });
  return jsonBytes({ eventId, type, observedAt, seq: MAX_SEQ, recordedAt, hash: HASH_PLACEHOLDER }) + '"body":,'.length + bodyBytes;
}

/** A value JSON.stringify leaves out of an object (so it adds no `"body":` either). */
export function leftOutOfJson(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** Throws StoreLimitError when a commit is too large, RangeError when its input is invalid. */
export function checkCommit(input: CommitInput): void {
  if (!Number.isSafeInteger(input.expectedHead) || input.expectedHead < 0) {
    throw new RangeError(`expectedHead must be a non-negative integer, got ${input.expectedHead}`);
  }
  for (const index of input.podFirstSightings ?? []) {
    if (!Number.isSafeInteger(index) || index < 0 || index >= input.entries.length) {
      throw new RangeError(`podFirstSightings must hold indexes of entries (0..${input.entries.length - 1}), got ${index}`);
    }
  }
  const bodyBytes = checkedBodyBytes(input.entries);
  if (input.outbox.length > MAX_COMMIT_COMMANDS) {
    throw new StoreLimitError('commands per commit', MAX_COMMIT_COMMANDS, input.outbox.length);
  }
  let total = 0;
  input.entries.forEach((entry, i) => {
    const size = bodyBytes[i] as number;
    total += pagedEntryBytesWith(entry, input.recordedAt, size);
  });
  for (const command of input.outbox) {
    checkId('commandId', command.commandId);
    const size = jsonBytes(command.detail);
    if (size > MAX_COMMAND_DETAIL_BYTES) {
      throw new StoreLimitError(`detail of command ${command.commandId} (bytes)`, MAX_COMMAND_DETAIL_BYTES, size);
    }
    total += size;
  }
  if (total > MAX_COMMIT_BYTES) throw new StoreLimitError('commit (bytes)', MAX_COMMIT_BYTES, total);
  if (input.snapshot !== undefined) checkSnapshotSize(input.snapshot);
}

/** Throws RangeError when a snapshot would be ahead of the log it summarises. */
export function checkSnapshotSeq(snapshot: Snapshot, head: number): void {
  if (!Number.isSafeInteger(snapshot.seq) || snapshot.seq < 0 || snapshot.seq > head) {
    throw new RangeError(`snapshot seq ${snapshot.seq} is outside 0..${head}, the committed log`);
  }
}

/** Throws RangeError unless `value` is a positive integer (a page size). */
export function checkLimit(value: number | undefined): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
    throw new RangeError(`limit must be a positive integer, got ${value}`);
  }
}

function checkId(field: string, id: string): void {
  if (id.length === 0) throw new RangeError(`${field} must not be empty`);
  const size = encoder.encode(id).length;
  if (size > MAX_ID_BYTES) throw new StoreLimitError(`${field} ${id.slice(0, 40)}… (bytes)`, MAX_ID_BYTES, size);
}

function checkSnapshotSize(snapshot: Snapshot): void {
  const size = snapshot.json === undefined ? jsonBytes(snapshot.state) : textBytes(snapshot.json);
  if (size > MAX_SNAPSHOT_STATE_BYTES) {
    throw new StoreLimitError('snapshot state (bytes)', MAX_SNAPSHOT_STATE_BYTES, size);
  }
}
