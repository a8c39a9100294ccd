import type { OutboundEvent } from '../contract/outbound.ts';
import type { NewCommand, NewEntry } from '../app/event-store.ts';
import { jsonBytes, MAX_COMMAND_DETAIL_BYTES, MAX_COMMIT_BYTES, pagedEntryBytes } from '../app/event-store-limits.ts';
import { OUTBOX_PAGE_TYPE, type OutboxJob, type OutboxPageDetail, type TerminationPage } from './outbox-page.ts';

// What one batch of the log writer writes is cut into commit steps, each one conditioned commit
// within the store's limits (and so within one DynamoDB transaction): STEP_BYTES of entries, as
// their log pages store them, and one outbox item of at most MAX_COMMAND_DETAIL_BYTES (its
// inline events and termination pages, outbox-page.ts). A decision's outbox travels in the step
// that logs it, never a later one (a Job's sync gives all its inline events to its first
// decision; a termination page's pods go with that page), so a crash between two steps can leave
// commands queued for decisions not logged yet, but never a logged decision without its
// commands. The writer then logs the rest of that sync under the ids it had and queues none of
// them again (shared/decide/resume-cut-sync.ts). Steps are taken in order; the head condition
// orders them.

/** Bodies per step, below MAX_COMMIT_BYTES to leave room for the outbox item. */
export const STEP_BYTES = MAX_COMMIT_BYTES - MAX_COMMAND_DETAIL_BYTES - 64 * 1024;

/** An entry to log, with the inline events of the sync it opens (empty otherwise). */
export interface PlannedEntry {
  readonly entry: NewEntry;
  readonly inline: readonly OutboundEvent[];
  /** A termination page's pods, for the step's outbox item. */
  readonly terminations?: TerminationPage | undefined;
  /**
   * Commit it in the same step as the next entry: the log writer keeps the observation that
   * ends a run with its sync's first decision, so a log that ends with an observation is a
   * log whose last sync decided nothing (shared/decide/resume-cut-sync.ts).
   */
  readonly withNext?: boolean;
  /** The chain hash the entry gets where it is planned (when the chain before it is known). */
  readonly hash?: string;
}

export interface CommitStep {
  readonly entries: NewEntry[];
  readonly inline: OutboundEvent[];
  readonly fromSeq: number;
  readonly toSeq: number;
  /** The step's termination pages, in log order. */
  readonly terminations: TerminationPage[];
}

/**
 * Cuts planned entries, to be logged at head + 1… with `recordedAt`, into steps. Entries share
 * log page items, and each counts as its page stores it (pagedEntryBytes), so a step fits one
 * transaction.
 */
export function commitSteps(head: number, planned: readonly PlannedEntry[], recordedAt: string, stepBytes = STEP_BYTES): CommitStep[] {
  const measure = (entry: NewEntry) => pagedEntryBytes(entry, recordedAt);
  // Each entry measured once: a pair's second entry is measured with the first, then alone.
  const sizes = new Map<number, number>();
  const sizeAt = (i: number) => {
    let size = sizes.get(i);
    if (size === undefined) sizes.set(i, (size = measure((planned[i] as PlannedEntry).entry)));
    return size;
  };
  const steps: CommitStep[] = [];
  let step: { entries: NewEntry[]; inline: OutboundEvent[]; terminations: TerminationPage[]; bytes: number; inlineBytes: number } | undefined;
  let seq = head;
  const close = () => {
    if (step) steps.push({ entries: step.entries, inline: step.inline, terminations: step.terminations, fromSeq: seq - step.entries.length + 1, toSeq: seq });
    step = undefined;
  };
  planned.forEach((plannedEntry, i) => {
    const { entry, inline, terminations } = plannedEntry;
    const bytes = sizeAt(i);
    const inlineBytes = outboxBytes(plannedEntry);
    // An entry kept with the one after it is measured with it, so the pair never splits.
    const next = planned[i - 1]?.withNext ? undefined : planned[i]?.withNext ? planned[i + 1] : undefined;
    const pairBytes = next ? sizeAt(i + 1) : 0;
    const pairInline = next ? outboxBytes(next) : 0;
    const full = step !== undefined && !planned[i - 1]?.withNext && (
      step.bytes + bytes + pairBytes > stepBytes ||
      (inlineBytes + pairInline > 0 && step.inlineBytes + inlineBytes + pairInline > MAX_COMMAND_DETAIL_BYTES - 4096));
    if (full) close();
    step ??= { entries: [], inline: [], terminations: [], bytes: 0, inlineBytes: 0 };
    step.entries.push(entry);
    step.inline.push(...inline);
    if (terminations) step.terminations.push(terminations);
    step.bytes += bytes;
    step.inlineBytes += inlineBytes;
    seq += 1;
  });
  close();
  return steps;
}

/** What an entry adds to its step's outbox item (its inline events and termination page), as JSON bytes. */
function outboxBytes({ inline, terminations }: PlannedEntry): number {
  return (inline.length === 0 ? 0 : jsonBytes(inline)) + (terminations ? jsonBytes(terminations) : 0);
}

/**
 * The outbox item of a step, or undefined when it has nothing to publish. Its id names the
 * step's first seq on this Job, so a step retried after a conflict writes a new id only if it
 * lands at another position — and a step that did land is never retried.
 */
export function stepOutboxItem(
  job: OutboxJob, managedBy: string | undefined, step: CommitStep, createdAt: string,
): NewCommand | undefined {
  if (step.inline.length === 0 && step.terminations.length === 0) return undefined;
  const detail: OutboxPageDetail = {
    job: { clusterId: job.clusterId, namespace: job.namespace, name: job.name, uid: job.uid },
    managedBy,
    inline: step.inline,
    ...(step.terminations.length === 0 ? {} : { terminations: step.terminations }),
  };
  return {
    commandId: `${job.uid}/out/${step.fromSeq}`,
    clusterId: job.clusterId,
    detailType: OUTBOX_PAGE_TYPE,
    detail,
    createdAt,
  };
}
