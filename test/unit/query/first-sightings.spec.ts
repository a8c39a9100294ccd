import { beforeAll, describe, expect, it } from 'vitest';
import type { CommitInput, CommitResult, ReadOptions, ReadResult, StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import type { Observation } from '../../../shared/job/events.ts';
import type { ArchivedPod } from '../../../shared/job/snapshot.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { citedDecisions } from '../../../functions/query/job-explanation.ts';
import { foldTo } from '../../../functions/query/job-state-at.ts';
import { LogWindow } from '../../../functions/query/log-window.ts';
import { explainJob } from '../../../shared/job/explain.ts';
import { readLog } from '../../../functions/query/object-log.ts';
import { TraceRecorder } from '../../../local/sample/trace-recorder.ts';
import { observationsOf, writeJob, type JobWriteDeps } from '../writer/write-support.ts';
import { foldJobLog } from './support/full-replay.ts';

// Given an Indexed Job written by the single writer in batches of random sizes, warm and cold,
// with a snapshot every few entries (so settled pods leave the snapshots for the pod archive),
// and settled pods observed again later (a new version, a late deletion) next to pods seen for
// the first time, when its state at every position is folded from the snapshot at or before it,
// then it equals a replay from the start — with the first-sighting marks the writer stores, with
// none (logs written before them), and with only some commits marked; the marks spare the
// archive most look-ups, and the settled pods observed again are still looked up and needed.

/** The store, recording the pods the archive is asked about and what it returns. */
class ArchiveCountingStore extends InMemoryEventStore {
  asked = 0;
  found = 0;
  /** Reads drop the marks: a log written before the writer marked first sightings. */
  hideMarks = false;
  /** Archive look-ups answer nothing: to show the fold needs them. */
  archiveOff = false;
  /** Commits whose marks are dropped on the way in: the i-th commit when `dropMarks(i)`. */
  dropMarks: (commit: number) => boolean = () => false;
  #commits = 0;

  override async commit(stream: StreamId, input: CommitInput): Promise<CommitResult> {
    const { podFirstSightings: _marks, ...unmarked } = input;
    return super.commit(stream, this.dropMarks(this.#commits++) ? unmarked : input);
  }

  override async read(stream: StreamId, options?: ReadOptions): Promise<ReadResult> {
    const { podFirstSightings, ...read } = await super.read(stream, options);
    return this.hideMarks || podFirstSightings === undefined ? read : { ...read, podFirstSightings };
  }

  override async loadArchivedPods(stream: StreamId, uids: readonly string[]): Promise<ArchivedPod[]> {
    this.asked += uids.length;
    const pods = this.archiveOff ? [] : await super.loadArchivedPods(stream, uids);
    this.found += pods.length;
    return pods;
  }
}

const COMPLETIONS = 24;
const WAVE = 8;

/** The Job's observations: three waves of 8 pods, every fifth failing and replaced, settled pods seen again. */
function jobObservations(): { stream: StreamId; observations: Observation[] } {
  const trace = new TraceRecorder('2026-04-01T00:00:00Z', 'f5e1');
  const job = trace.job('c1', 0, 'ml', 'sweep', { completions: COMPLETIONS, parallelism: WAVE, completionMode: 'Indexed', backoffLimit: 100 });
  const first: ReturnType<TraceRecorder['runPod']>[] = [];
  for (let i = 0; i < COMPLETIONS; i++) {
    const start = 1 + Math.floor(i / WAVE) * 10;
    const pod = trace.runPod(job, start, i);
    first.push(pod);
    trace.exitPod(pod, start + 3 + (i % 4), i % 5 === 2 ? 1 : 0);
    if (i % 5 === 2) trace.exitPod(trace.runPod(job, start + 8, i, 1), start + 9, 0);
  }
  // Settled pods of the first waves observed again while later ones run, and deleted late.
  for (const [i, pod] of first.entries()) {
    if (i < 2 * WAVE && i % 3 === 0) trace.exitPod(pod, 22 + (i % 4), i % 5 === 2 ? 1 : 0);
    if (i % 4 === 1) trace.deletePod(pod, 26 + (i % 7));
  }
  const ordered = trace.entries.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i).map(({ e }) => e);
  const parsed = observationsOf(ordered.map((e) => ({ source: e.Source, 'detail-type': e.DetailType, detail: JSON.parse(e.Detail) })));
  return { stream: parsed[0]!.stream, observations: parsed.map((o) => o.observation) };
}

/** Writes the observations in batches of 1–12 (a fixed pseudo-random sequence), every third one cold. */
async function writeInBatches(store: ArchiveCountingStore, { stream, observations }: ReturnType<typeof jobObservations>): Promise<StreamId> {
  const cache = new StateCache();
  let seed = 7;
  for (let i = 0, batch = 0; i < observations.length; batch++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const size = 1 + (seed % 12);
    const deps: JobWriteDeps = {
      store, config: DEFAULT_FOLD_CONFIG, snapshotEvery: 4, clock: () => `2026-04-01T01:${String(batch % 60).padStart(2, '0')}:00Z`,
      ...(batch % 3 === 2 ? {} : { cache }),
    };
    await writeJob(deps, stream, observations.slice(i, i + size));
    i += size;
  }
  return stream;
}

/** The status at every position, folded from snapshots, and as a replay from the start. */
async function statusesAt(store: ArchiveCountingStore, stream: StreamId) {
  const { entries, head } = await readLog(store, stream);
  const folded: unknown[] = [];
  const replayed: unknown[] = [];
  for (let seq = 1; seq <= head; seq++) {
    const { state } = await foldTo({ store, config: DEFAULT_FOLD_CONFIG }, stream, seq);
    folded.push({ seq, status: jobStatus(state) });
    replayed.push({ seq, status: jobStatus(foldJobLog(DEFAULT_FOLD_CONFIG, entries.slice(0, seq)).state) });
  }
  return { folded, replayed, head };
}

describe('first sightings: a fold from a snapshot asks the archive only about pods seen before', () => {
  const job = jobObservations();
  let store: ArchiveCountingStore;
  let stream: StreamId;

  beforeAll(async () => {
    store = new ArchiveCountingStore();
    stream = await writeInBatches(store, job);
  });

  it('has the history this spec is about: snapshots, archived pods, marks, and settled pods observed again', async () => {
    const { entries, head, podFirstSightings } = await store.read(stream);
    const { state } = foldJobLog(DEFAULT_FOLD_CONFIG, entries);
    expect(jobStatus(state).conditions?.map((c) => c.type)).toContain('Complete');
    expect((await store.loadSnapshot(stream, { atOrBefore: head / 2 }))?.seq).toBeGreaterThan(0);
    // Every pod's first observation is marked, and nothing else is.
    const firstSeen = new Map<string, number>();
    for (const entry of entries) {
      const uid = entry.type === 'PodObserved' ? (entry.body as Observation & { type: 'PodObserved' }).pod.metadata.uid : undefined;
      if (uid !== undefined && !firstSeen.has(uid)) firstSeen.set(uid, entry.seq);
    }
    expect(podFirstSightings).toEqual([...firstSeen.values()]);
    expect(firstSeen.size).toBe(COMPLETIONS + 5);
  });

  it('folds every position as a replay from the start does, and the marks spare most archive look-ups', async () => {
    store.asked = 0;
    store.found = 0;
    const marked = await statusesAt(store, stream);
    expect(marked.folded).toEqual(marked.replayed);
    const withMarks = { asked: store.asked, found: store.found };

    store.hideMarks = true;
    store.asked = 0;
    store.found = 0;
    const unmarked = await statusesAt(store, stream);
    store.hideMarks = false;
    expect(unmarked.folded).toEqual(unmarked.replayed);

    // The archive is still asked about the settled pods observed again, and has them; without
    // the marks it is also asked about every pod first seen after the snapshot.
    expect(withMarks.found).toBeGreaterThan(0);
    expect(withMarks.asked).toBeLessThan(store.asked / 2);
  });

  it('needs the archive for the settled pods observed again: without it some position folds wrong', async () => {
    store.archiveOff = true;
    const { folded, replayed } = await statusesAt(store, stream);
    store.archiveOff = false;
    expect(folded).not.toEqual(replayed);
  });

  it('explains the Job from the events a route read as from the snapshots, and as a replay does', async () => {
    const { entries, head } = await store.read(stream);
    const deps = { store, config: DEFAULT_FOLD_CONFIG, cursorKey: Buffer.alloc(32) };
    const { state, window: tail } = await foldTo(deps, stream, head);
    const replay = foldJobLog(DEFAULT_FOLD_CONFIG, entries);
    const full = explainJob(replay.state, replay.events);
    // The conditions decided within the events read (the whole log here) and, without them,
    // found by bisecting the snapshots: each condition with the same decision and evidence.
    const fromEvents = explainJob(state, await citedDecisions(deps, stream, state, head, new LogWindow(entries))).conditions;
    const fromSnapshots = explainJob(state, await citedDecisions(deps, stream, state, head)).conditions;
    const fromTail = explainJob(state, await citedDecisions(deps, stream, state, head, tail)).conditions;
    expect(full.conditions.map((c) => c.decidedBy)).not.toContain(undefined);
    expect(fromEvents).toEqual(full.conditions);
    expect(fromSnapshots).toEqual(full.conditions);
    expect(fromTail).toEqual(full.conditions);
  });

  it('folds a log whose commits are only partly marked as a replay does', async () => {
    const partly = new ArchiveCountingStore();
    partly.dropMarks = (commit) => commit % 2 === 1;
    const partlyStream = await writeInBatches(partly, job);
    const { folded, replayed } = await statusesAt(partly, partlyStream);
    expect(folded).toEqual(replayed);
    expect((await partly.read(partlyStream)).podFirstSightings?.length).toBeGreaterThan(0);
  });
});
