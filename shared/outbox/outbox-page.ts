import { commandEvent, isDispatched, type OutboundEvent } from '../contract/outbound.ts';
import { terminatePods } from '../job/commands.ts';
import type { Decision, DecisionOf } from '../job/decisions.ts';
import type { LogEntry } from '../app/event-store.ts';

// An outbox item's size must not depend on the Job's size. An item is written with each commit
// step (one DynamoDB transaction) and holds: the outbound events that are small and bounded per
// sync (condition changes, status updates, up to 500 pod creations) inline, and for pod
// terminations — one per pod, any number — only the seq range of the step's log entries: the
// publisher reads the PodsTerminationRequested pages there and derives one event per pod, the
// same event `commandEvent` builds from the TerminatePod command the decision stood for.

export const OUTBOX_PAGE_TYPE = 'jobfold.outbound-page';

/** The Job a step's commands act on, as the commands name it. */
export interface OutboxJob {
  readonly clusterId: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

export interface OutboxPageDetail {
  readonly job: OutboxJob;
  readonly managedBy: string | undefined;
  /** Events not derived from the log, in the order they were decided. */
  readonly inline: readonly OutboundEvent[];
  /** Log entries of the step whose PodsTerminationRequested pages are to be published. */
  readonly range: { readonly fromSeq: number; readonly toSeq: number } | undefined;
}

/** The TerminatePod events a termination decision (or one page of it) stands for. */
export function terminationEvents(
  job: OutboxJob,
  managedBy: string | undefined,
  decision: DecisionOf<'PodsTerminationRequested'>,
): OutboundEvent[] {
  return terminatePods(job, decision).filter((command) => isDispatched(command, managedBy)).map(commandEvent);
}

/** Whether a decision's commands travel as a log range rather than inline. */
export function publishedFromLog(decision: Decision): boolean {
  return decision.type === 'PodsTerminationRequested';
}

/**
 * Every event of an outbox page, in a stable order (inline first, then the terminations in
 * log order), so a publisher's progress is a count into this list. `entries` are the log
 * entries of `detail.range` (any others are ignored).
 */
export function outboxPageEvents(detail: OutboxPageDetail, entries: readonly LogEntry[]): OutboundEvent[] {
  const events = [...detail.inline];
  const range = detail.range;
  if (!range) return events;
  for (const entry of entries) {
    if (entry.seq < range.fromSeq || entry.seq > range.toSeq || entry.type !== 'PodsTerminationRequested') continue;
    const decision = entry.body as DecisionOf<'PodsTerminationRequested'>;
    events.push(...terminationEvents(detail.job, detail.managedBy, decision));
  }
  return events;
}
