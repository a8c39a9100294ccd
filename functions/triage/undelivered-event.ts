import { parseInboundRecord } from '../../shared/contract/parse-inbound-record.ts';
import type { InboundError } from '../../shared/contract/parse-inbound.ts';
import { partitionKeyProblem, ruleTargetPartitionKey } from '../../shared/contract/partition-key.ts';
import { REJECTION_SOURCE } from '../aws/bus-rejection-sink.ts';
import { TIMER_SOURCE, timerPartitionKey, TimerRecordSchema } from '../handlers/writer/timer-record.ts';

// What to do with an event the inbound rule could not put into the ingest stream (its DLQ in
// AWS, the rule target's failure path locally). Issue 14: every inbound event is stored or
// refused with its reason, none dead-lettered. So the event is judged by the writer's own
// validation: what the writer would refuse is refused now, with the same reasons; what the
// writer would take is put into the stream again (the failure was the stream's, e.g. throttling
// for 24 h), under a key Kinesis takes. Decisions only; triage-event.ts carries them out.

export type EventTriage =
  | { readonly action: 'refuse'; readonly errors: readonly InboundError[] }
  | { readonly action: 'redrive'; readonly partitionKey: string; readonly data: string }
  | { readonly action: 'park'; readonly reason: string };

/** Decides for `text` (the event as EventBridge delivers it to a target) that failed with `deliveryError`. */
export function triageUndeliveredEvent(text: string, deliveryError: string): EventTriage {
  const because: InboundError = { path: '', message: `the ingest stream did not take it: ${deliveryError}` };
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    return { action: 'refuse', errors: [{ path: '', message: 'the dead-lettered message is not JSON' }, because] };
  }
  const source = (event as { source?: unknown } | null)?.source;
  if (source === REJECTION_SOURCE) {
    // A refusal the bus could not file in the rejected-events queue: it already carries its
    // reasons; it is parked as it is, where the operator reads the other dead letters.
    return { action: 'park', reason: `a rejection the bus could not deliver to the rejected-events queue: ${deliveryError}` };
  }
  if (source === TIMER_SOURCE) {
    const timer = TimerRecordSchema.safeParse(event);
    if (!timer.success) return { action: 'refuse', errors: [...timer.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })), because] };
    return { action: 'redrive', partitionKey: timerPartitionKey(timer.data.detail.stream), data: text };
  }
  // A single event or a pack, as the writer parses a record; a pack's observations that the
  // writer would refuse alone are refused by it once the pack is back in the stream.
  const parsed = parseInboundRecord(event);
  if (!parsed.ok) return { action: 'refuse', errors: [...parsed.errors, because] };
  return { action: 'redrive', partitionKey: redriveKey(event as { id?: unknown; detail?: unknown }, parsed.primary[0]?.stream.uid), data: text };
}

/**
 * The key the rule would have used when Kinesis takes it; else the uid of the event's log,
 * which is what the forwarder keys by (the inbound schema makes this branch a safeguard: it
 * refuses every key Kinesis would).
 */
function redriveKey(event: { id?: unknown; detail?: unknown }, logUid: string | undefined): string {
  const key = ruleTargetPartitionKey(event);
  if (partitionKeyProblem(key) === undefined) return key;
  return logUid !== undefined && partitionKeyProblem(logUid) === undefined ? logUid : 'jobfold-redrive';
}
