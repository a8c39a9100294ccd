import { beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry, StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { jobStateAt } from '../../../functions/query/job-state-at.ts';
import { TraceRecorder } from '../../../local/sample/trace-recorder.ts';
import { observationsOf, writeJob } from '../writer/write-support.ts';
import { foldJobLog } from './support/full-replay.ts';

// Given an Indexed Job of 1,500 pods written by the single writer in batches of 250, each batch
// recorded a minute after the one before, so its log (4,500 entries) is longer than the span the
// time search reads at once (2,000) and holds a snapshot at least 2,500 entries in — so some
// searches end in a span after the snapshot (one read serves the span and the tail) and some
// before it — when the status is asked for at each batch's time and between two of them, then
// it is the status after the last entry recorded by then, as a replay of the log up to it says.

const PODS = 1500;
const BATCH = 250;
const minute = (i: number) => `2026-05-01T10:${String(i).padStart(2, '0')}:00Z`;

let store: InMemoryEventStore;
let stream: StreamId;
let log: LogEntry[];

beforeAll(async () => {
  const trace = new TraceRecorder('2026-05-01T09:00:00Z', 'a7c3');
  const job = trace.job('c1', 0, 'ml', 'wide', { completions: PODS, parallelism: PODS, completionMode: 'Indexed', backoffLimit: 10 });
  const pods = Array.from({ length: PODS }, (_, i) => trace.runPod(job, 1, i));
  pods.forEach((pod, i) => trace.exitPod(pod, 2 + (i % 50), 0));
  pods.forEach((pod, i) => trace.deletePod(pod, 60 + (i % 50)));
  const ordered = trace.entries.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i).map(({ e }) => e);
  const parsed = observationsOf(ordered.map((e) => ({ source: e.Source, 'detail-type': e.DetailType, detail: JSON.parse(e.Detail) })));
  stream = parsed[0]!.stream;
  store = new InMemoryEventStore();
  const observations = parsed.map((o) => o.observation);
  for (let i = 0, batch = 0; i < observations.length; i += BATCH, batch++) {
    await writeJob({ store, config: DEFAULT_FOLD_CONFIG, snapshotEvery: 2500, clock: () => minute(batch) }, stream, observations.slice(i, i + BATCH));
  }
  log = (await store.read(stream)).entries;
});

describe('status?at=<time> on a log longer than the time search reads at once', () => {
  it('has the log this spec is about: twice the span the search reads at once, a snapshot 2,500 entries in', async () => {
    expect(log.length).toBeGreaterThan(4000);
    expect((await store.loadSnapshot(stream))?.seq).toBeGreaterThanOrEqual(2500);
    expect((await store.loadSnapshot(stream, { atOrBefore: 2499 }))).toBeUndefined();
  });

  it('folds the prefix recorded by each time as a replay does', async () => {
    const deps = { store, config: DEFAULT_FOLD_CONFIG, cursorKey: Buffer.alloc(32) };
    const times = [...new Set(log.map((e) => e.recordedAt))];
    const probes = [...times, '2026-05-01T10:03:30Z', '2026-05-01T09:59:59Z', '2026-05-01T11:00:00Z'];
    for (const time of probes) {
      const at = await jobStateAt(deps, stream, { time });
      const prefix = log.filter((e) => Date.parse(e.recordedAt) <= Date.parse(time));
      const last = prefix.at(-1);
      expect({ time, seq: at.seq, recordedAt: at.recordedAt }).toEqual({ time, seq: last?.seq ?? 0, recordedAt: last?.recordedAt });
      expect(jobStatus(at.state), time).toEqual(jobStatus(foldJobLog(DEFAULT_FOLD_CONFIG, prefix).state));
    }
  });
});
