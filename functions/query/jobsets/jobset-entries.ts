import type { LogEntry } from '../../../shared/log/event-store.ts';
import { jobSetEntryEvent, JobSetObservationSchema, type JobSetDecisionEvent, type JobSetEvent, type LoggedJobSetDecision } from '../../../shared/jobset/index.ts';
import { JOBSET_COMMAND_OF_DECISION } from '../command-decisions.ts';
import type { EntryCategory } from '../history-page.ts';

// A JobSet's log holds observations (what a cluster reported) and the JobSet fold's decisions;
// the decisions that issue commands to the cluster are the `…Issued` ones and the JobSet's own
// deletion (`JobSetDeletionRequested`).

const OBSERVATION_TYPES: ReadonlySet<string> = new Set(JobSetObservationSchema.options.map((o) => o.shape.type.value));

const COMMAND_TYPES: ReadonlySet<string> = new Set(Object.keys(JOBSET_COMMAND_OF_DECISION));

/** Which part of a JobSet's history an entry type belongs to. */
export function jobSetEntryCategory(type: string): EntryCategory {
  if (OBSERVATION_TYPES.has(type)) return 'observation';
  return COMMAND_TYPES.has(type) ? 'command' : 'decision';
}

/** The decisions of a JobSet's log, each with its seq: what explainJobSet and the command list read. */
export function loggedJobSetDecisions(entries: readonly LogEntry[]): LoggedJobSetDecision[] {
  const decisions: LoggedJobSetDecision[] = [];
  for (const entry of entries) {
    // Observations are skipped before reading: only decisions are needed, and they need no parse.
    if (OBSERVATION_TYPES.has(entry.type)) continue;
    const event = jobSetEntryEvent(entry);
    if (isDecision(event)) decisions.push({ seq: entry.seq, event });
  }
  return decisions;
}

const isDecision = (event: JobSetEvent): event is JobSetDecisionEvent => !OBSERVATION_TYPES.has(event.type);
