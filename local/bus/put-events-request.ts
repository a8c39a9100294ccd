// EventBridge's validation of a PutEvents request, as the local bus applies it. Request-level
// problems fail the whole call with an AWS JSON 1.1 error (HTTP 400, `__type` + `message`);
// problems of one entry fail that entry only, with the ErrorCode/ErrorMessage EventBridge uses.

/** PutEvents takes 1 to 10 entries per call. */
export const MAX_ENTRIES = 10;
/** The limit on the entries of one call, counted as EventBridge counts entry sizes. */
export const MAX_REQUEST_ENTRY_BYTES = 256 * 1024;
/** "PutEvents will only process nested JSON up to 1000 levels deep" (PutEvents API reference). */
export const MAX_DETAIL_DEPTH = 1000;
/** What a timestamp counts towards an entry's size. */
const TIME_BYTES = 14;

/** A request EventBridge refuses as a whole. */
export class PutEventsRequestError extends Error {
  override name = 'PutEventsRequestError';
  readonly type: string;
  readonly status: number;

  constructor(type: string, message: string, status = 400) {
    super(message);
    this.type = type;
    this.status = status;
  }
}

/** An entry that passed validation. */
export interface ValidEntry {
  readonly source: string;
  readonly detailType: string;
  readonly detail: Record<string, unknown>;
  readonly resources: readonly string[];
  readonly time: Date | undefined;
}

export type EntryResult =
  | { readonly ok: true; readonly entry: ValidEntry }
  | { readonly ok: false; readonly errorCode: string; readonly errorMessage: string };

/** Returns the request's entries; throws PutEventsRequestError for a request refused as a whole. */
export function requestEntries(request: unknown): readonly unknown[] {
  const entries = typeof request === 'object' && request !== null ? (request as { Entries?: unknown }).Entries : undefined;
  const constraint = (rule: string) =>
    new PutEventsRequestError('ValidationException', `1 validation error detected: Value at 'entries' failed to satisfy constraint: ${rule}`);
  if (entries === undefined || entries === null) throw constraint('Member must not be null');
  if (!Array.isArray(entries)) throw new PutEventsRequestError('SerializationException', 'Entries must be a list');
  if (entries.length < 1) throw constraint('Member must have length greater than or equal to 1');
  if (entries.length > MAX_ENTRIES) throw constraint(`Member must have length less than or equal to ${MAX_ENTRIES}`);
  const bytes = entries.reduce<number>((sum, entry) => sum + entrySize(entry), 0);
  if (bytes > MAX_REQUEST_ENTRY_BYTES) {
    throw new PutEventsRequestError('ValidationException', 'Total size of the entries in the request is over the limit.');
  }
  return entries;
}

/** Validates one entry: Source, DetailType and Detail (a JSON object) are required. */
export function checkEntry(raw: unknown): EntryResult {
  const entry = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  for (const field of ['Source', 'DetailType', 'Detail'] as const) {
    const value = entry[field];
    if (typeof value !== 'string' || value.trim() === '') {
      return invalid(`Parameter ${field} is not valid. Reason: ${field} is a required argument.`);
    }
  }
  const depth = jsonDepth(entry['Detail'] as string);
  if (depth > MAX_DETAIL_DEPTH) {
    return {
      ok: false,
      errorCode: 'MalformedDetail',
      errorMessage: `Detail is malformed: nested ${depth} levels deep; PutEvents only processes nested JSON up to ${MAX_DETAIL_DEPTH} levels deep.`,
    };
  }
  let detail: unknown;
  try {
    detail = JSON.parse(entry['Detail'] as string);
  } catch {
    return { ok: false, errorCode: 'MalformedDetail', errorMessage: 'Detail is malformed.' };
  }
  if (typeof detail !== 'object' || detail === null || Array.isArray(detail)) {
    return { ok: false, errorCode: 'MalformedDetail', errorMessage: 'Detail is malformed.' };
  }
  const resources = entry['Resources'] ?? [];
  if (!Array.isArray(resources) || resources.some((r) => typeof r !== 'string')) {
    return invalid('Parameter Resources is not valid. Reason: Resources must be a list of strings.');
  }
  const time = parseTime(entry['Time']);
  if (time === null) return invalid('Parameter Time is not valid. Reason: Time must be a timestamp.');
  return {
    ok: true,
    entry: {
      source: entry['Source'] as string,
      detailType: entry['DetailType'] as string,
      detail: detail as Record<string, unknown>,
      resources: resources as string[],
      time,
    },
  };
}

/** EventBridge's entry size: Time (14 bytes when set), Source, DetailType, Detail and Resources in UTF-8. */
export function entrySize(raw: unknown): number {
  if (typeof raw !== 'object' || raw === null) return 0;
  const entry = raw as Record<string, unknown>;
  const utf8 = (value: unknown) => (typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : 0);
  const resources = Array.isArray(entry['Resources']) ? entry['Resources'] : [];
  return (entry['Time'] === undefined ? 0 : TIME_BYTES) + utf8(entry['Source']) + utf8(entry['DetailType'])
    + utf8(entry['Detail']) + resources.reduce<number>((sum, r) => sum + utf8(r), 0);
}

const invalid = (errorMessage: string): EntryResult => ({ ok: false, errorCode: 'InvalidArgument', errorMessage });

/** AWS JSON 1.1 sends timestamps as epoch seconds; an RFC 3339 string is taken too. Null: invalid. */
function parseTime(value: unknown): Date | undefined | null {
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === 'number' ? value * 1000 : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/** The deepest nesting of objects and arrays in JSON text, read without parsing (no recursion). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}
