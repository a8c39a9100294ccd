import type { JobState } from './state.ts';
import { expectedCreations } from './expectations.ts';

/**
 * A JobSet reads a child Job's active, ready, succeeded and failed counts, its conditions and
 * its parallelism, completions and suspend (shared/jobset/child-jobs.ts). The fold keeps a
 * version of that part of the status: it goes up each time the part changes, so a status that
 * returns to an earlier value (ready 1 → 0 → 1) is a new version and reaches the JobSet again,
 * while an unchanged one is reported once (shared/job/child-job-status.ts names entries by it).
 *
 * It runs after every event, and the part changes at nearly every pod event. Snapshots keep the
 * part as a string key; building and comparing that string after every event cost about a
 * tenth of the fold bench's time. So a live Job keeps the values the key is made of
 * (`state.childStatusInputs`, updated in place, not persisted), compares those, and builds the
 * key only for a snapshot (childStatusKeyOf). The version moves exactly when the key would.
 */
export function trackChildStatus(state: JobState): void {
  if (state.finalStatus !== undefined) return settleKey(state, finalKey(state), undefined);
  const inputs = state.childStatusInputs;
  if (inputs === undefined) {
    const fresh = newInputs(state);
    return settleKey(state, liveKey(fresh), fresh);
  }
  const countsChanged = !sameCounts(state, inputs);
  const conditionsChanged = !sameConditions(state, inputs);
  if (!countsChanged && !conditionsChanged) return;
  // The counts and spec fields lead the key, each a number or empty, so a change there changes
  // it; condition texts could in principle hold the key's separators, so those are compared as keys.
  const before = countsChanged ? undefined : liveKey(inputs);
  if (countsChanged) fillCounts(state, inputs);
  if (conditionsChanged) fillConditions(state, inputs);
  if (before !== undefined && before === liveKey(inputs)) return;
  state.childStatusVersion += 1;
}

/** The key a snapshot stores: built from the live values, or the one a restore or a finish left. */
export function childStatusKeyOf(state: JobState): string {
  return state.childStatusInputs === undefined ? state.childStatusKey : liveKey(state.childStatusInputs);
}

/** What a live Job's key is made of; the conditions flat, as type, status and reason of each. */
export interface ChildStatusInputs {
  active: number;
  ready: number;
  succeeded: number;
  failed: number;
  parallelism: number | undefined;
  completions: number | undefined;
  suspend: boolean;
  conditions: string[];
}

/** Moves to `key` from the key as it stands, compared as strings (a restored or finished Job's, or a live one's first). */
function settleKey(state: JobState, key: string, inputs: ChildStatusInputs | undefined): void {
  const before = childStatusKeyOf(state);
  state.childStatusKey = key;
  state.childStatusInputs = inputs;
  if (key !== before) state.childStatusVersion += 1;
}

function newInputs(state: JobState): ChildStatusInputs {
  const inputs: ChildStatusInputs = {
    active: 0, ready: 0, succeeded: 0, failed: 0, parallelism: undefined, completions: undefined, suspend: false, conditions: [],
  };
  fillCounts(state, inputs);
  fillConditions(state, inputs);
  return inputs;
}

const activeOf = (state: JobState): number => state.counts.active + expectedCreations(state);
const succeededOf = (state: JobState): number => (state.settings?.indexed ? state.status.completedIndexes.size : state.status.succeeded);

function sameCounts(state: JobState, inputs: ChildStatusInputs): boolean {
  const spec = state.spec;
  return inputs.active === activeOf(state) && inputs.ready === state.counts.ready && inputs.succeeded === succeededOf(state) &&
    inputs.failed === state.status.failed && inputs.parallelism === spec?.parallelism &&
    inputs.completions === spec?.completions && inputs.suspend === (spec?.suspend === true);
}

function sameConditions(state: JobState, inputs: ChildStatusInputs): boolean {
  const conditions = state.status.conditions;
  const flat = inputs.conditions;
  if (flat.length !== conditions.length * 3) return false;
  for (let i = 0; i < conditions.length; i++) {
    const c = conditions[i] as (typeof conditions)[number];
    if (flat[3 * i] !== c.type || flat[3 * i + 1] !== c.status || flat[3 * i + 2] !== c.reason) return false;
  }
  return true;
}

/** Writes the live counts into `inputs` (kept by the state, so no new object per event). */
function fillCounts(state: JobState, inputs: ChildStatusInputs): void {
  const spec = state.spec;
  inputs.active = activeOf(state);
  inputs.ready = state.counts.ready;
  inputs.succeeded = succeededOf(state);
  inputs.failed = state.status.failed;
  inputs.parallelism = spec?.parallelism;
  inputs.completions = spec?.completions;
  inputs.suspend = spec?.suspend === true;
}

function fillConditions(state: JobState, inputs: ChildStatusInputs): void {
  inputs.conditions = [];
  for (const c of state.status.conditions) inputs.conditions.push(c.type, c.status, c.reason);
}

function liveKey(inputs: ChildStatusInputs): string {
  const { active, ready, succeeded, failed, parallelism, completions, suspend, conditions } = inputs;
  let key = `${active}/${ready}/${succeeded}/${failed}/${parallelism ?? ''}/${completions ?? ''}/${suspend ? 1 : 0}`;
  for (let i = 0; i < conditions.length; i += 3) key += `/${conditions[i]}=${conditions[i + 1]}:${conditions[i + 2]}`;
  return key;
}

function finalKey(state: JobState): string {
  const final = state.finalStatus;
  return final === undefined ? '' : `final/${final.active}/${final.ready}/${final.succeeded}/${final.failed}/${final.conditions.length}`;
}
