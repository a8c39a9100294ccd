import type * as z from 'zod';
import { DecisionSchema, type Decision } from './decisions.ts';
import { ObservationSchema, type Observation } from './events.ts';
import type { JobEvent } from './evolve.ts';
import type { LogEntry, NewEntry } from '../log/event-store.ts';

/** Observations and decisions as log entries, and back. */

export function observationEntry(observation: Observation): NewEntry {
  const { seq: _seq, ...body } = observation;
  return { eventId: observation.eventId, type: observation.type, observedAt: observation.observedAt, body };
}

export function decisionEntry(decision: Decision): NewEntry {
  const { seq: _seq, ...body } = decision;
  return { eventId: decision.eventId, type: decision.type, observedAt: decision.at, body };
}

const DECISION_TYPES = new Set(DecisionSchema.options.map((o) => o.shape.type.value as string));

/** Whether an entry of a Job's log is a decision (else an observation). */
export const isDecisionType = (type: string): boolean => DECISION_TYPES.has(type);

/**
 * Reads a stored entry back into an event for the fold. Entries were validated when they
 * were appended; they are parsed again because the table is a boundary too (a restored backup,
 * an older version's entries). A corrupt entry throws, naming its seq.
 */
export function entryEvent(entry: LogEntry): JobEvent {
  const schema: z.ZodType<JobEvent> = isDecisionType(entry.type) ? DecisionSchema : ObservationSchema;
  return entryPart(entry, schema);
}

/**
 * Reads the part of a stored entry that `schema` picks, parsed as entryEvent parses it (a reader
 * that needs a pod observation's metadata only need not parse the pod's status). A corrupt part
 * throws as entryEvent does.
 */
export function entryPart<T>(entry: LogEntry, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse({ ...(entry.body as Record<string, unknown>), seq: entry.seq });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`log entry ${entry.seq} (${entry.type}) is corrupt: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}
