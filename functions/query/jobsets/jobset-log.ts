import type { LogEntry } from '../../../shared/app/event-store.ts';
import {
  fold,
  JobSetObservationSchema,
  type JobSetDecisionEvent,
  type JobSetEvent,
  type JobSetState,
} from '../../../shared/jobset/index.ts';
import type { EntryCategory } from '../history-page.ts';

// A JobSet's log: each entry's body is one event of the JobSet fold, `{type, ...}`
// (shared/jobset/events.ts and decision-events.ts). Observations are parsed again on the way
// out (the table is a boundary); decisions were written by decide() and are trusted, as the
// JobSet fold's own docs say, once their type is known.

const OBSERVATION_TYPES: ReadonlySet<string> = new Set(JobSetObservationSchema.options.map((o) => o.shape.type.value));

const DECISION_TYPES: ReadonlySet<string> = new Set<JobSetDecisionEvent['type']>([
  'JobSetConditionChanged',
  'JobSetRestarted',
  'JobSetFailed',
  'JobSetCompleted',
  'JobSetRejected',
  'CreateJobIssued',
  'DeleteJobIssued',
  'SuspendJobIssued',
  'ResumeJobIssued',
]);

const COMMAND_TYPES: ReadonlySet<string> = new Set(['CreateJobIssued', 'DeleteJobIssued', 'SuspendJobIssued', 'ResumeJobIssued']);

/** Which part of a JobSet's history an entry type belongs to. */
export function jobSetEntryCategory(type: string): EntryCategory {
  if (OBSERVATION_TYPES.has(type)) return 'observation';
  return COMMAND_TYPES.has(type) ? 'command' : 'decision';
}

/** Reads a stored entry back into a JobSet event; a corrupt entry throws, naming its seq. */
export function jobSetEntryEvent(entry: LogEntry): JobSetEvent {
  const body = { ...(entry.body as Record<string, unknown>), type: entry.type };
  if (DECISION_TYPES.has(entry.type)) return body as unknown as JobSetDecisionEvent;
  const parsed = JobSetObservationSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`log entry ${entry.seq} (${entry.type}) is corrupt: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}

/**
 * The JobSet's state after its whole log, and the events. The fold counts positions from 1, so
 * folding the gap-free log from its start makes every `tippedBy` a seq of this log.
 */
export function foldJobSetLog(entries: readonly LogEntry[]): { state: JobSetState; events: JobSetEvent[] } {
  const events = entries.map(jobSetEntryEvent);
  return { state: fold(events), events };
}
