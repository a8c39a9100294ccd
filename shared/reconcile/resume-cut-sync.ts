import type { DecisionRead } from '../audit/decision-read.ts';
import type { JobCommand } from '../job/commands.ts';
import { decide } from '../job/decide.ts';
import type { Decision, DecisionOf } from '../job/decisions.ts';
import { evolve, type JobEvent } from '../job/evolve.ts';
import type { JobState } from '../job/state.ts';
import { pageDecisions, pageTermination } from './page-decisions.ts';

// A crash between two commit steps can leave a sync's first decisions in the log and the rest
// not. Deciding again at the head would take the rest on a state that already holds part of
// the sync: the same acts, but under ids derived from another position (a condition change or
// a status write queued a second time, under a new commandId), and pages that replace the
// deletions the first page expects instead of adding to them. So the sync is decided again
// where it was first decided, on the state before its first decision: the same decisions, the
// same ids, the same pages, and only those not logged yet are logged. The log then reads as if
// no crash had happened, and every command keeps the one id it was queued under.

/** A sync the log holds only the start of: when and after which entry it was decided. */
export interface CutSync {
  readonly at: string;
  /** What its logged decisions record they read (`read.head` is the sync's position). */
  readonly read: DecisionRead;
}

/** The rest of a cut-short sync, to log at the head. */
export interface SyncRest {
  readonly at: string;
  /** Recorded with the rest as with the start, so the sync reads as one. */
  readonly read: DecisionRead;
  readonly decisions: readonly Decision[];
  /** The rest's own commands: the terminations of its pages (the others left with the start). */
  readonly commands: readonly JobCommand[];
  readonly wakeAt: string | undefined;
}

/**
 * Folds `tail` into `state`, deciding the cut sync again at its own position on the way, and
 * returns its rest. Undefined when the state is already past that position: the writer takes a
 * snapshot only with a batch's last step, so never inside a sync.
 */
export function foldResuming(state: JobState, tail: readonly JobEvent[], cut: CutSync, pageBytes?: number): SyncRest | undefined {
  const position = cut.read.head;
  const logged = tail.filter((event) => (event.seq ?? 0) > position);
  if (state.position > position || logged.length === 0) {
    for (const event of tail) evolve(state, event);
    return undefined;
  }
  for (const event of tail) if ((event.seq ?? 0) <= position) evolve(state, event);
  const again = decide(state, cut.at);
  for (const event of logged) evolve(state, event);
  const decisions = restOf(again.decisions, logged, pageBytes);
  const restPods = new Set(decisions.flatMap((d) => (d.type === 'PodsTerminationRequested' ? d.pods.map((p) => p.uid) : [])));
  const commands = again.commands.filter((c) => c.type === 'TerminatePod' && restPods.has(c.podUid));
  // Pages cut otherwise than the first time make another count: recorded, so the sync reads whole.
  const read = { ...cut.read, decisions: logged.length + decisions.length };
  return { at: cut.at, read, decisions, commands, wakeAt: again.wakeAt };
}

/**
 * The decisions of the sync not logged yet. A decision is known by its id, which the sync's
 * position and its place among the sync's decisions give, whatever its pages. A termination
 * whose first pages are logged keeps its id for the rest of its pods, paged on from the next
 * page number; with the page size the first attempt had, these are the very pages it would
 * have logged.
 */
function restOf(decisions: readonly Decision[], logged: readonly JobEvent[], pageBytes?: number): Decision[] {
  const loggedIds = new Set(logged.map((event) => event.eventId));
  return decisions.flatMap((decision): Decision[] => {
    if (!loggedIds.has(decision.eventId)) return pageDecisions([decision], pageBytes);
    if (decision.type !== 'PodsTerminationRequested') return [];
    const pages = logged.filter((e): e is DecisionOf<'PodsTerminationRequested'> =>
      e.type === 'PodsTerminationRequested' && (e.eventId === decision.eventId || e.eventId.startsWith(`${decision.eventId}/page/`)));
    const requested = new Set(pages.flatMap((page) => page.pods.map((pod) => pod.uid)));
    const pods = decision.pods.filter((pod) => !requested.has(pod.uid));
    return pods.length === 0 ? [] : pageTermination({ ...decision, pods }, pageBytes, pages.length);
  });
}
