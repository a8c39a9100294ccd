import { commandEvent, isDispatched, type OutboundEvent } from '../contract/outbound.ts';
import { terminatePods } from '../job/commands.ts';
import type { Decision, TerminationCause } from '../job/decisions.ts';
import type { LogEntry } from '../log/event-store.ts';

// An outbox page is written with each commit step (one DynamoDB transaction) and carries what
// the publisher needs to build every event of the step, so publishing never reads the log: the
// events built when decided (condition changes, status updates, up to 500 pod creations) inline,
// and each pod termination page of the step as a TerminationPage — the decision's shared fields
// once and its pods as two columns of names and uids, from which the publisher builds the
// `Pod Termination Requested` events with the one builder (shared/job/commands.ts
// terminatePods). A termination page holds at most PAGE_BYTES of pod references
// (shared/job/page-decisions.ts), so its outbox form is smaller still (names and uids
// only, ~66 bytes a pod); commit-steps.ts counts it in the item's MAX_COMMAND_DETAIL_BYTES.
// Pages written before this form name the step's log range instead (`range`); they are still
// published, by reading that range back (shared/publish/publish.ts itemEvents).

export const OUTBOX_PAGE_TYPE = 'jobfold.outbound-page';

/** The Job a step's commands act on, as the commands name it. */
export interface OutboxJob {
  readonly clusterId: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/**
 * One termination decision (or one page of it) as the outbox carries it: its shared fields once,
 * its pods as two columns in the decision's order (a pod's name and uid at the same index). In
 * columns the JSON is a fifth smaller than as objects, which lets more pods into an item.
 */
export interface TerminationPage {
  readonly cause: TerminationCause;
  readonly reason: string;
  readonly message: string;
  readonly names: readonly string[];
  readonly uids: readonly string[];
}

export interface OutboxPageDetail {
  readonly job: OutboxJob;
  readonly managedBy: string | undefined;
  /** Events built when decided, in the order they were decided. */
  readonly inline: readonly OutboundEvent[];
  /** The step's pod terminations that leave jobfold, in log order. */
  readonly terminations?: readonly TerminationPage[];
  /** Pages written before terminations travelled in the item: the step's log range, read back. */
  readonly range?: { readonly fromSeq: number; readonly toSeq: number } | undefined;
}

/**
 * What the outbox carries for a termination decision page: undefined for any other decision, and
 * for terminations that stay in jobfold (isDispatched: an unmanaged Job's excess pods).
 */
export function terminationPage(decision: Decision, managedBy: string | undefined): TerminationPage | undefined {
  if (decision.type !== 'PodsTerminationRequested' || decision.pods.length === 0) return undefined;
  if (!isDispatched({ type: 'TerminatePod', cause: decision.cause }, managedBy)) return undefined;
  const { cause, reason, message, pods } = decision;
  return { cause, reason, message, names: pods.map((pod) => pod.name), uids: pods.map((pod) => pod.uid) };
}

/**
 * Every event of an outbox page, in a stable order (inline first, then the terminations in log
 * order), so a publisher's progress is a count into this list. `entries`: the log entries of
 * `detail.range`, for a page written in the older form (any others are ignored).
 */
export function outboxPageEvents(detail: OutboxPageDetail, entries: readonly LogEntry[] = []): OutboundEvent[] {
  const events = [...detail.inline];
  for (const page of detail.terminations ?? []) events.push(...terminationEvents(detail.job, page));
  const range = detail.range;
  if (!range) return events;
  for (const entry of entries) {
    if (entry.seq < range.fromSeq || entry.seq > range.toSeq || entry.type !== 'PodsTerminationRequested') continue;
    const page = terminationPage(entry.body as Decision, detail.managedBy);
    if (page) events.push(...terminationEvents(detail.job, page));
  }
  return events;
}

/** The `Pod Termination Requested` events of a termination page, one per pod, named `<jobUid>/terminate/<podUid>`. */
function terminationEvents(job: OutboxJob, page: TerminationPage): OutboundEvent[] {
  const pods = page.names.map((name, i) => ({ name, uid: page.uids[i] as string }));
  return terminatePods(job, { ...page, pods }).map(commandEvent);
}
