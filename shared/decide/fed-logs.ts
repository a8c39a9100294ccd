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
 * makes all of them delivered again. A report sent for its counts only rides on the next entry
 * that carries counts, when it may (ridden).
 */
export function fedBatches(written: readonly { readonly batch: LogBatch; readonly outcome: WriteOutcome }[], own: readonly LogBatch[]): LogBatch[] {
  const fed = new Map<string, { batch: LogBatch; order: Fed[] }>();
  const target = (stream: StreamId) => {
    const key = streamKey(stream);
    let log = fed.get(key);
    if (!log) fed.set(key, (log = { batch: logBatch(stream), order: [] }));
    return log;
  };
  const add = (stream: StreamId, item: Omit<Fed, 'i'>, sources: readonly string[]) => {
    const log = target(stream);
    log.order.push({ ...item, i: log.order.length });
    for (const source of sources) if (!log.batch.sources.includes(source)) log.batch.sources.push(source);
  };
  for (const { batch, outcome } of written) {
    // A report made before the batch's observations stands at the batch's first record.
    const positionOf = (after: number) => batch.positions[Math.max(0, after)] ?? batch.positions[0] ?? 0;
    for (const { report, after, countsOnly, resent } of outcome.reports) {
      const riding = countsOnly && report.rideOn ? { rideOn: report.rideOn } : resent ? { resent } : {};
      add(report.stream, { entry: report.entry, position: positionOf(after), ...riding }, batch.sources);
    }
    for (const related of batch.related) add(related.stream, { entry: related.entry, position: related.position }, batch.sources);
  }
  for (const batch of own) {
    batch.entries.forEach((entry, i) => add(batch.stream, { entry, position: batch.positions[i] ?? 0 }, batch.sources));
    target(batch.stream).batch.texts.push(...batch.texts);
  }
  return [...fed.values()].map(({ batch, order }) => {
    // Stable: entries of one record keep their order.
    const sorted = ridden([...order].sort((a, b) => a.position - b.position || a.i - b.i));
    return { ...batch, entries: sorted.map((o) => o.entry), positions: sorted.map((o) => o.position) };
  });
}

/** An entry a fed log receives, where it stands, and how it rides on a later one when it is sent for its counts only. */
interface Fed {
  readonly entry: NewEntry;
  readonly position: number;
  readonly i: number;
  readonly rideOn?: Report['rideOn'];
  /** A report sent again after a cold load (write-batch.ts): its counts are older, and it carries no others. */
  readonly resent?: true;
}

/**
 * A fed log's entries, those sent for their counts only (a child Job event that changed no status
 * the JobSet holds: docs/ordering.md, "JobSets: the count") carried by the next entry that carries
 * counts instead, when every one of that entry's is later than all of theirs: their counts are
 * then noted one entry later, with no counted entry between, so no count is ever noted before one
 * sent ahead of it (which would open a hole). Otherwise they keep their entries, where they stood;
 * so do those left at the end, unless the last of them can carry the others'. A report sent again
 * after a cold load is passed over: its counts are older than any sent since.
 */
function ridden(order: readonly Fed[]): Fed[] {
  const out: Fed[] = [];
  let waiting: Fed[] = [];
  for (const item of order) {
    if (item.rideOn !== undefined) {
      waiting.push(item);
      continue;
    }
    if (item.resent) {
      out.push(item);
      continue;
    }
    const carried = rideAll(waiting, item.entry);
    if (carried === 'passes') {
      out.push(item);
      continue;
    }
    if (carried === undefined) out.push(...waiting, item);
    else out.push({ ...item, entry: carried });
    waiting = [];
  }
  const last = waiting.at(-1);
  if (last !== undefined) {
    const carried = rideAll(waiting.slice(0, -1), last.entry);
    if (carried === undefined || carried === 'passes') out.push(...waiting);
    else out.push({ ...last, entry: carried });
  }
  return out.sort((a, b) => a.position - b.position || a.i - b.i);
}

/** `entry` carrying the counts of every one of `riders` (the newest first, each onto counts all later than its own), or none's. */
function rideAll(riders: readonly Fed[], entry: NewEntry): NewEntry | 'passes' | undefined {
  let carried: NewEntry | 'passes' | undefined = entry;
  for (const rider of [...riders].reverse()) {
    carried = rider.rideOn?.(carried);
    if (carried === undefined || carried === 'passes') return carried;
  }
  return carried;
}
