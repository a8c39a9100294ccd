import type { NewEntry, StreamId } from '../log/event-store.ts';
import { streamKey } from '../log/stream-key.ts';
import type { LogEvent, Report } from './decider.ts';
import type { WriteOutcome } from './write-batch.ts';

// One delivery (a slice of the ingest stream's batch) is written in two rounds: first every log
// its records name directly (Jobs), then every log the first round fed — a JobSet, with its own
// records, its child Jobs' statuses as their logs decided them, and their deletions — in the
// order of the records each entry came from. A JobSet so reads its Jobs in the order the
// cluster's events arrived, whatever the batching, and never a status their logs do not hold.

/** One log's share of a delivery: its entries in arrival order, and where each came from. */
export interface LogBatch {
  readonly stream: StreamId;
  /** The log's new entries, in order (an observation's entry: its body is the observation). */
  readonly entries: NewEntry[];
  /** For each of `entries`, the index of the record it came from (its arrival order). */
  readonly positions: number[];
  /** Entries the same records add to other logs (a child Job's deletion, for its JobSet). */
  readonly related: (Report & { readonly position: number })[];
  /** The records' ids (Kinesis sequence numbers): a failed log names them for the retry. */
  readonly sources: string[];
  /** The records' text, kept to file them as rejections if the log is parked. */
  readonly texts: string[];
}

/** An empty batch for `stream`. */
export function logBatch(stream: StreamId): LogBatch {
  return { stream, entries: [], positions: [], related: [], sources: [], texts: [] };
}

/** An entry back as the observation it was parsed from: its body, under the entry's eventId. */
export function entryObservation<O extends LogEvent = LogEvent>(entry: NewEntry): O {
  const body = entry.body as O;
  return body.eventId === entry.eventId ? body : { ...body, eventId: entry.eventId };
}

/**
 * The second round of a delivery: every log that `written` (the first round's logs, with what
 * their writes reported) or `own` (logs of the second round's kind with records of their own)
 * feed, each with its entries in the order of the records they came from. A fed log's
 * `sources` are its own records' and those of the records that fed it, so that its failure
 * makes all of them delivered again.
 */
export function fedBatches(written: readonly { readonly batch: LogBatch; readonly outcome: WriteOutcome }[], own: readonly LogBatch[]): LogBatch[] {
  const fed = new Map<string, { batch: LogBatch; order: { entry: NewEntry; position: number }[] }>();
  const target = (stream: StreamId) => {
    const key = streamKey(stream);
    let log = fed.get(key);
    if (!log) fed.set(key, (log = { batch: logBatch(stream), order: [] }));
    return log;
  };
  const add = (stream: StreamId, entry: NewEntry, position: number, sources: readonly string[]) => {
    const log = target(stream);
    log.order.push({ entry, position });
    for (const source of sources) if (!log.batch.sources.includes(source)) log.batch.sources.push(source);
  };
  for (const { batch, outcome } of written) {
    // A report made before the batch's observations stands at the batch's first record.
    const positionOf = (after: number) => batch.positions[Math.max(0, after)] ?? batch.positions[0] ?? 0;
    for (const { report, after } of outcome.reports) add(report.stream, report.entry, positionOf(after), batch.sources);
    for (const related of batch.related) add(related.stream, related.entry, related.position, batch.sources);
  }
  for (const batch of own) {
    batch.entries.forEach((entry, i) => add(batch.stream, entry, batch.positions[i] ?? 0, batch.sources));
    target(batch.stream).batch.texts.push(...batch.texts);
  }
  return [...fed.values()].map(({ batch, order }) => {
    // Stable: entries of one record keep their order.
    const sorted = order.map((o, i) => ({ ...o, i })).sort((a, b) => a.position - b.position || a.i - b.i);
    return { ...batch, entries: sorted.map((o) => o.entry), positions: sorted.map((o) => o.position) };
  });
}
