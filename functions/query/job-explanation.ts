import type { LogEntry, StreamId } from '../../shared/log/event-store.ts';
import { entryEvent } from '../../shared/job/index.ts';
import type { JobEvent } from '../../shared/job/index.ts';
import { CORRECTED_TO, explainJob, LINGERING_CONDITIONS, type Explanation } from '../../shared/job/index.ts';
import type { JobState } from '../../shared/job/index.ts';
import { conditionDecisionIn, findConditionDecision } from './condition-decisions.ts';
import { memoSnapshots } from './snapshot-bisect.ts';
import type { QueryDeps } from './http.ts';
import { jobEntryCategory } from './job-entries.ts';
import { foldTo } from './job-state-at.ts';
import { entryAt, logHead, readRange } from './log-reads.ts';
import type { LogWindow } from './log-window.ts';
import { terminatedPodsPage } from './terminated-pods-page.ts';

// The explanation of a Job at its head, from the log entries it cites rather than the whole
// log: the state from the newest snapshot and its tail; per condition, the decision that set it
// (condition-decisions.ts) and the event that tipped it; after an interim or suspending
// decision, the pod terminations decided with it (the lingering pods its sentence counts); before
// an interim one, a correction it followed (the outcome it replaced). The
// full list of terminated pods is paged (terminated-pods-page.ts).

const FOLLOWERS_PAGE = 8;

export type PagedExplanation = Explanation & { readonly terminatedPodsNextAfter?: number };

export async function explainStoredJob(
  deps: QueryDeps,
  stream: StreamId,
  pods: { readonly after: number; readonly limit: number },
): Promise<PagedExplanation> {
  const head = await logHead(deps.store, stream);
  const { state, window } = await foldTo(deps, stream, head);
  const page = await terminatedPodsPage(deps.store, stream, pods.after, pods.limit);
  return {
    ...explainJob(state, await citedDecisions(deps, stream, state, head, window)),
    terminatedPods: page.items,
    ...(page.nextAfter === undefined ? {} : { terminatedPodsNextAfter: page.nextAfter }),
  };
}

/**
 * The log entries an explanation of `state` (the state at `head`) cites, in log order: per
 * condition, the decision that set it and the event that tipped it, after an interim or
 * suspending decision the decisions of the same reconcile, and before an interim one the
 * corrections of that reconcile (the outcome it replaced). explainJob over them says what it
 * says over the whole log, except the list of terminated pods (paged apart). `known`: entries
 * the caller read already, consecutive and ending at `head` (the tail after the snapshot, the
 * Job view's window): a condition decided within them (as a finished Job's usually are) costs
 * no read at all, and only the entries cited are parsed; an older one is found by a bisection
 * over the snapshots.
 */
export async function citedDecisions(
  deps: QueryDeps, stream: StreamId, state: JobState, head: number, known?: LogWindow,
): Promise<JobEvent[]> {
  const suffix = known?.last === head ? known : undefined;
  const cited = new Map<number, JobEvent>();
  const windows = new Map();
  const snapshots = memoSnapshots(deps.store);
  for (const condition of state.status.conditions) {
    const decision = conditionDecisionIn(suffix, condition) ?? (await findConditionDecision(deps.store, stream, condition, head, windows, snapshots));
    if (decision?.seq === undefined) continue;
    cited.set(decision.seq, decision);
    const tipping = decision.evidence.tippedBy;
    const tipped = cited.has(tipping) ? undefined : (suffix?.event(tipping) ?? (await eventAt(deps, stream, tipping)));
    if (tipped) cited.set(tipped.seq ?? 0, tipped);
    if (LINGERING_CONDITIONS.has(condition.type)) {
      for (const follower of await decisionsAfter(deps, stream, decision.seq, head, suffix)) cited.set(follower.seq ?? 0, follower);
    }
    if (CORRECTED_TO.has(condition.type)) {
      for (const correction of await correctionsBefore(deps, stream, decision.seq, suffix)) cited.set(correction.seq ?? 0, correction);
    }
  }
  // A terminal condition taken back alone (a pod the cluster still ran) is cited by no decision.
  for (const seq of state.reopenedBy ?? []) {
    const correction = cited.has(seq) ? undefined : (suffix?.event(seq) ?? (await eventAt(deps, stream, seq)));
    if (correction) cited.set(seq, correction);
  }
  return [...cited.values()].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}

async function eventAt(deps: QueryDeps, stream: StreamId, seq: number): Promise<JobEvent | undefined> {
  const entry = await entryAt(deps.store, stream, seq);
  return entry && entryEvent(entry);
}

/** The decisions logged right after `seq`, up to the next observation: those of the same reconcile. */
async function decisionsAfter(
  deps: QueryDeps, stream: StreamId, seq: number, head: number, known: LogWindow | undefined,
): Promise<JobEvent[]> {
  const result: JobEvent[] = [];
  for (let position = seq + 1; position <= head; position++) {
    const entry = known?.entry(position);
    if (entry === undefined) return [...result, ...(await decisionsRead(deps, stream, position - 1, head))];
    if (jobEntryCategory(entry.type) === 'observation') return result;
    result.push(known!.event(position)!);
  }
  return result;
}

/**
 * The corrections logged before `seq` in the same reconcile (back to the observation it was
 * decided at): the outcomes the one decided at `seq` replaced (shared/job/outcome-correction.ts).
 * Each carries all its explanation says, so nothing older is read for it.
 */
async function correctionsBefore(deps: QueryDeps, stream: StreamId, seq: number, known: LogWindow | undefined): Promise<JobEvent[]> {
  const result: JobEvent[] = [];
  let page: LogEntry[] = [];
  for (let position = seq - 1; position >= 1; position--) {
    let entry = known?.entry(position) ?? page.find((read) => read.seq === position);
    if (entry === undefined) {
      page = await readRange(deps.store, stream, Math.max(0, position - FOLLOWERS_PAGE), position);
      entry = page.find((read) => read.seq === position);
    }
    if (entry === undefined || jobEntryCategory(entry.type) === 'observation') return result;
    if (entry.type === 'JobOutcomeCorrected') result.push(known?.event(position) ?? entryEvent(entry));
  }
  return result;
}

async function decisionsRead(deps: QueryDeps, stream: StreamId, seq: number, head: number): Promise<JobEvent[]> {
  const result: JobEvent[] = [];
  for (let position = seq; position < head; position += FOLLOWERS_PAGE) {
    for (const entry of await readRange(deps.store, stream, position, Math.min(head, position + FOLLOWERS_PAGE))) {
      if (jobEntryCategory(entry.type) === 'observation') return result;
      result.push(entryEvent(entry));
    }
  }
  return result;
}

