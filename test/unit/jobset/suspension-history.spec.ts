import { describe, expect, it } from 'vitest';
import { evolve } from '../../../shared/jobset/evolve.ts';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { initialState, suspendInForceAt, type JobSetState } from '../../../shared/jobset/state.ts';
import { walkBegunOnLastResumption } from '../../../shared/jobset/startup-policy.ts';
import { walkStartedSince } from '../../../shared/jobset/walk-evidence.ts';
import { compareVersions } from '../../../shared/k8s/object-sequence.ts';
import { at, jobObserved, jobReady, jobSetObserved, versioned } from './support/builders.ts';

// Issue 20: the suspension history an InOrder JobSet's fold keeps (`suspendedVersions`,
// `suspendedChildVersions`) stays bounded over thousands of suspensions, and answers
// `walkBegunOnLastResumption` as the whole, unbounded history would, whatever order it arrives in.

const spec = (suspend: boolean) => ({ replicatedJobs: [{ name: 'a', replicas: 1 }], startupPolicy: { startupPolicyOrder: 'InOrder' }, suspend });

/**
 * `cycles` rounds of: the JobSet seen suspended (twice), its Job seen suspended (twice), the
 * JobSet seen resumed, and in two rounds of three the Job seen ready after it (the walk restarted
 * and went on), each observation with its own resourceVersion.
 */
function history(cycles: number): JobSetObservation[] {
  const events: JobSetObservation[] = [];
  let version = 1;
  const seconds = (cycle: number) => Math.floor((cycle * 3000) / cycles);
  for (let cycle = 0; cycle < cycles; cycle++) {
    const s = seconds(cycle);
    events.push(versioned(version++, jobSetObserved(spec(true), { seconds: s })));
    events.push(versioned(version++, jobObserved('a', 0, { seconds: s, suspend: true })));
    events.push(versioned(version++, jobSetObserved(spec(true), { seconds: s })));
    events.push(versioned(version++, jobObserved('a', 0, { seconds: s, suspend: true })));
    events.push(versioned(version++, jobSetObserved(spec(false), { seconds: s })));
    if (cycle % 3 !== 2) events.push(versioned(version++, jobReady('a', 0, { seconds: s })));
  }
  events.push(versioned(version++, jobSetObserved(spec(true), { seconds: 3000 })));
  return events;
}

/** What every suspension, resumption and suspended Job snapshot folded so far says, kept whole. */
interface WholeHistory {
  readonly suspended: string[];
  readonly children: string[];
  resumed: string | undefined;
}

function remember(history: WholeHistory, event: JobSetObservation): void {
  if (event.type === 'JobSetObserved') {
    const version = event.jobSet.metadata.resourceVersion as string;
    if (event.jobSet.spec.suspend === true) history.suspended.push(version);
    else if (history.resumed === undefined || compareVersions(version, history.resumed) > 0) history.resumed = version;
  }
  if (event.type === 'JobObserved' && event.job.spec?.suspend === true) history.children.push(event.job.metadata.resourceVersion as string);
}

/** The same question asked of the whole history. */
function unboundedAnswer(state: JobSetState, history: WholeHistory): boolean {
  const spec = state.jobSet?.spec;
  const resumed = history.resumed;
  if (spec === undefined || !spec.suspend || resumed === undefined) return false;
  const newest = (versions: readonly string[], keep: (v: string) => boolean) =>
    versions.filter(keep).reduce<string | undefined>((found, v) => (found === undefined || compareVersions(v, found) > 0 ? v : found), undefined);
  const before = newest(history.suspended, (v) => compareVersions(v, resumed) < 0);
  const next = history.suspended.filter((v) => compareVersions(v, resumed) > 0).reduce<string | undefined>((found, v) => (found === undefined || compareVersions(v, found) < 0 ? v : found), undefined);
  if (before === undefined || next === undefined) return false;
  const job = newest(history.children, (v) => compareVersions(v, before) > 0 && compareVersions(v, next) < 0);
  return job !== undefined && !walkStartedSince(spec, state, job);
}

/** A deterministic shuffle that delays each observation by up to `window` places (a late delivery). */
function delivered(events: readonly JobSetObservation[], window: number, seed: number): JobSetObservation[] {
  let x = seed;
  const random = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  return events.map((event, i) => ({ event, key: i + random() * window })).sort((a, b) => a.key - b.key).map(({ event }) => event);
}

function foldChecking(events: readonly JobSetObservation[]): { state: JobSetState; answers: boolean[]; expected: boolean[] } {
  let state = initialState();
  const answers: boolean[] = [];
  const expected: boolean[] = [];
  const whole: WholeHistory = { suspended: [], children: [], resumed: undefined };
  for (const event of events) {
    state = evolve(state, event);
    remember(whole, event);
    const spec = state.jobSet?.spec;
    answers.push(spec !== undefined && walkBegunOnLastResumption(spec, state));
    expected.push(unboundedAnswer(state, whole));
  }
  return { state, answers, expected };
}

describe('the suspension history of an InOrder JobSet suspended and resumed 2,000 times', () => {
  const events = history(2000);

  it('given its observations in order (11,335), when folded, then it keeps the versions since the last round\'s second suspension only', () => {
    let state = initialState();
    for (const event of events) state = evolve(state, event);
    // The last round: suspended 11329, Job suspended 11330, suspended 11331, Job suspended 11332,
    // resumed 11333, Job ready 11334; then suspended 11335.
    expect(events).toHaveLength(11335);
    expect(state.suspendedVersions).toEqual(['11331', '11335']);
    expect(state.suspendedChildVersions).toEqual(['11332']);
  });

  it('given its observations in order, when folded, then after every one the walk begun on the last resumption is answered as by the whole history', () => {
    const { answers, expected } = foldChecking(events);
    expect(answers).toEqual(expected);
    expect(answers.filter(Boolean).length).toBeGreaterThan(0);
  });
});

describe('the suspension history of an InOrder JobSet suspended and resumed 1,000 times, delivered late', () => {
  for (const [window, seed] of [[8, 1], [40, 2], [300, 3], [2000, 4]] as const) {
    it(`given its observations each delayed by up to ${window} places (seed ${seed}), when folded, then after every one the answer is the whole history's`, () => {
      const { answers, expected } = foldChecking(delivered(history(1000), window, seed));
      expect(answers).toEqual(expected);
      expect(answers.filter(Boolean).length).toBeGreaterThan(0);
    });
  }
});

describe('the JobSet timeline past 128 observations of one suspended run, a resumed one arriving late inside it', () => {
  // A cap of 64 once kept only each run's ends past it: the late resumption at 41 then ran until
  // the run's last entry, and the spec in force at 100 s read resumed (issue 20: nothing cut silently).
  const suspendedRun = Array.from({ length: 130 }, (_, i) => versioned(2 * (i + 1), jobSetObserved(spec(true), { seconds: 2 * (i + 1) })));
  const lateResumption = versioned(41, jobSetObserved(spec(false), { seconds: 41 }));

  it('given them folded, when the spec in force is asked, then it is the whole history\'s: resumed only between 41 s and the suspension seen at 42 s', () => {
    const state = [...suspendedRun, lateResumption].reduce(evolve, initialState());
    expect(state.jobSetTimeline).toHaveLength(131);
    expect(suspendInForceAt(state, at(41))).toBe(true);
    expect(suspendInForceAt(state, at(42))).toBe(false);
    expect(suspendInForceAt(state, at(43))).toBe(true);
    expect(suspendInForceAt(state, at(100))).toBe(true);
    expect(suspendInForceAt(state, at(300))).toBe(true);
  });
});
