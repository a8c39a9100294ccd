import { formatTime, parseTime } from '../k8s/time.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import { activeDeadlineAt } from '../policies/active-deadline.ts';
import type { SuspendAt } from './suspension-order.ts';
import { record, type Sync } from './sync.ts';

// Issue 21, "no harmful command from a transient view": the deadline of a Job jobfold runs.
// Upstream's syncJob resets status.startTime to its clock in the sync that reads the Job resumed
// ("Resumed jobs will always reset StartTime to current time"), so activeDeadlineSeconds counts
// the Job's continuous activity since its last resumption; pastActiveDeadline, checked before
// that reset, is false while the Job is suspended. jobfold's own sync at a resumption does the
// same (decide.ts writeSuspended), when it reads the resumption in time. Read late — an older
// observation arriving after newer ones, or its syncs on the resumption held back by expectations
// (a deletion the forwarder's guard refused holds them 5 minutes) — the start it set before the
// suspension stood, and a deadline passed on it: every pod terminated (JobFinishing), healthy
// ones included, which the forwarder's deletion guard never refuses (managed generated histories,
// seed 21 history-42, seed 7 history-30, seed 8 history-31, seed 99 history-50). The spec history
// (state.suspendChanges, kept over the cluster's clock, stale observations included) says when
// the Job was resumed: the start runs from there, as the cluster's order had it.

/**
 * The start time a Job jobfold runs has on the cluster's clock: the one jobfold set, moved to
 * each later resumption its spec history shows (a suspended instant followed by an unsuspended
 * one, of each instant the newest observation), unless the deadline had passed on the start
 * before that resumption (upstream's resuming sync checks it first, and fails the Job then).
 * Recorded (`StartTimeSet`) when it moves, so the status jobfold writes carries it.
 */
export function startAtLastResumption(sync: Sync): void {
  const { state } = sync;
  const settings = state.settings;
  if (settings?.managedBy !== JOBFOLD_CONTROLLER_NAME || settings.suspend || sync.startTime === undefined) return;
  const set = parseTime(sync.startTime);
  const start = resumedStart(state.suspendChanges, set, settings.activeDeadlineSeconds, sync.now);
  if (start === set) return;
  sync.startTime = formatTime(start);
  record(sync, { type: 'StartTimeSet', startTime: sync.startTime });
}

/**
 * The start `set` moved to each resumption after it up to `now` (pure; the rule above). Of the
 * observations of one instant the newest (the last entry of the instant) is the spec a sync read.
 */
export function resumedStart(entries: readonly SuspendAt[], set: number, activeDeadlineSeconds: number | undefined, now: number): number {
  let start = set;
  let suspended: boolean | undefined;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as SuspendAt;
    if (entry.at > now) break;
    if (entries[i + 1]?.at === entry.at) continue;
    if (entry.at <= start) {
      suspended = entry.suspend;
      continue;
    }
    if (entry.suspend) {
      suspended = true;
      continue;
    }
    if (suspended === true) {
      const due = activeDeadlineAt(activeDeadlineSeconds, start);
      if (due !== undefined && due <= entry.at) return start;
      start = entry.at;
    }
    suspended = false;
  }
  return start;
}
