import type { InboundError } from '../../shared/contract/parse-inbound.ts';

/** EventBridge's limit on one PutEvents entry; the Detail must leave room for the envelope. */
export const MAX_ENTRY_BYTES = 256 * 1024;
/** Source, DetailType, bus name and the JSON around them, with margin. */
const ENVELOPE_ALLOWANCE = 1024;
const MAX_ERRORS = 20;
const MAX_ERROR_TEXT = 1024;

export interface RejectionDetail {
  readonly errors: readonly InboundError[];
  readonly reason: string;
  /** True when anything below was cut to fit the entry (errors, reason or original). */
  readonly truncated: boolean;
  readonly original: string;
}

/**
 * The Detail text of a rejection, at most MAX_ENTRY_BYTES − the envelope in UTF-8 bytes of its
 * JSON (escapes included): errors (at most 20, each field cut to 1 KiB, its head and tail kept),
 * the reason, and as much of the original as fits, cut at a character boundary. Says
 * `truncated` when it cut.
 */
export function fitRejection(original: string, errors: readonly InboundError[], maxBytes = MAX_ENTRY_BYTES - ENVELOPE_ALLOWANCE): string {
  const kept = errors.slice(0, MAX_ERRORS).map((e) => ({ path: cut(e.path, MAX_ERROR_TEXT), message: cut(e.message, MAX_ERROR_TEXT) }));
  let truncated = kept.length < errors.length || kept.some((e, i) => e.path !== errors[i]?.path || e.message !== errors[i]?.message);
  const fullReason = errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
  const reason = cut(fullReason, 4 * MAX_ERROR_TEXT);
  if (reason !== fullReason) truncated = true;
  const whole: RejectionDetail = { errors: kept, reason, truncated, original };
  const text = JSON.stringify(whole);
  if (Buffer.byteLength(text) <= maxBytes) return text;
  // Cut the original: the longest prefix whose JSON form fits what the rest leaves.
  const rest = Buffer.byteLength(JSON.stringify({ ...whole, truncated: true, original: '' }));
  const budget = maxBytes - rest;
  let low = 0;
  let high = Math.min(original.length, budget);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(JSON.stringify(prefix(original, mid))) - 2 <= budget) low = mid;
    else high = mid - 1;
  }
  return JSON.stringify({ ...whole, truncated: true, original: prefix(original, low) });
}

/** The first `units` UTF-16 units of `text`, never ending inside a surrogate pair. */
function prefix(text: string, units: number): string {
  const last = text.charCodeAt(units - 1);
  const next = text.charCodeAt(units);
  const splitsPair = last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
  return text.slice(0, splitsPair ? units - 1 : units);
}

/**
 * `text` in at most about `maxChars`: its head and its tail around a marker. An error names the
 * field first and says why last, after the bad value (`metadata.name: Invalid value: "…": must
 * be no more than 253 characters`), so a 100 KB value is cut from the middle, never the why.
 */
function cut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = prefix(text, Math.ceil(maxChars / 2));
  const tail = suffix(text, Math.floor(maxChars / 4));
  return `${head}… (truncated: ${text.length - head.length - tail.length} characters) …${tail}`;
}

/** The last `units` UTF-16 units of `text`, never starting inside a surrogate pair. */
function suffix(text: string, units: number): string {
  const start = text.length - units;
  const first = text.charCodeAt(start);
  const before = text.charCodeAt(start - 1);
  const splitsPair = first >= 0xdc00 && first <= 0xdfff && before >= 0xd800 && before <= 0xdbff;
  return text.slice(splitsPair ? start + 1 : start);
}
