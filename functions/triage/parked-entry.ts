import { fitRejection, MAX_ENTRY_BYTES } from '../aws/fit-rejection.ts';
import type { ParkedEntry } from '../../shared/contract/dead-letters.ts';

// A parked entry: work the dead-letter triage could neither write, refuse nor put back, with
// the error that put it there (issue 14: "a DLQ entry carries the error that put it there").
// An operator reads it in the parked queue (functions/aws/sqs-parked-sink.ts; locally
// GET /local/dead-letters), fixes the cause and sends `original` back (docs/deploy.md).

/** Context fields are cut to this; the body's other fields are cut by fitRejection. */
const MAX_CONTEXT_CHARS = 1024;
/** Room for the context fields (4 × 1 KiB cut, JSON-escaped at most ×6) and the message attributes. */
const CONTEXT_ALLOWANCE = 32 * 1024;

/**
 * The entry as a message body of at most `maxBytes` UTF-8 bytes: fitRejection's
 * `{errors, reason, truncated, original}` (the original cut to fit, saying so) with the code and
 * where the record came from. Never larger, whatever the original.
 */
export function parkedBody(entry: ParkedEntry, maxBytes = MAX_ENTRY_BYTES): string {
  const errors = [{ path: '', message: `${entry.reason}: ${entry.error.name}: ${entry.error.message}` }];
  const fitted = JSON.parse(fitRejection(entry.original, errors, maxBytes - CONTEXT_ALLOWANCE)) as Record<string, unknown>;
  const context = {
    parked: entry.code,
    error: { name: cut(entry.error.name), message: cut(entry.error.message) },
    ...(entry.job === undefined ? {} : { job: cut(entry.job) }),
    ...(entry.shardId === undefined ? {} : { shardId: cut(entry.shardId) }),
    ...(entry.sequenceNumber === undefined ? {} : { sequenceNumber: cut(entry.sequenceNumber) }),
    receiveCount: entry.receiveCount,
  };
  return JSON.stringify({ ...context, ...fitted });
}

/** The error as one line for an attribute: `Name: message`, at most 1 KiB of characters. */
export const errorLine = (entry: ParkedEntry): string => cut(`${entry.error.name}: ${entry.error.message}`);

function cut(text: string): string {
  return text.length <= MAX_CONTEXT_CHARS ? text : `${text.slice(0, MAX_CONTEXT_CHARS).toWellFormed()}… (truncated)`;
}

/** Any thrown value as the name and message a parked entry carries. */
export function errorOf(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}
