import { beforeAll, describe, expect, it } from 'vitest';
import type { EventStore, ReadOptions, ReadResult, StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { explainJob } from '../../../shared/job/explain.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { TraceRecorder } from '../../../local/sample/trace-recorder.ts';
import { foldJobLog } from './support/full-replay.ts';
import { issuedCommands } from '../../../functions/query/issued-commands.ts';
import { storedJobView } from '../../../functions/query/stored-job-view.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { readLog } from '../../../functions/query/object-log.ts';
import { ExplanationSchema } from '../../../functions/query/schemas/explanation-schemas.ts';
import { jobPath, queryClient, type Get } from './support/query-client.ts';
import { playTrace, type Service } from './support/service-fleet.ts';

// Given an Indexed Job of 60 pods whose long log holds a snapshot every 5 entries (and settled
// pods archived out of them), when its status at every position, its explanation and its
// history are queried, then each answer equals a replay of the log from the start, every entry
// and every terminated pod is listed exactly once across pages, and the explanation, the Job
// view and the timeline read only a part of the log (issue 10: queries start from a snapshot at
// or before the position).

const PODS = 60;

/** The store, counting the log entries that reads return. */
class CountingStore extends InMemoryEventStore {
  entriesRead = 0;
  override async read(stream: StreamId, options?: ReadOptions): Promise<ReadResult> {
    const result = await super.read(stream, options);
    this.entriesRead += result.entries.length;
    return result;
  }
}

let store: CountingStore;
let get: Get;
let stream: StreamId;
let head: number;
const path = (suffix = '') => jobPath('c1', 'ml', 'train', suffix);

beforeAll(async () => {
  store = new CountingStore();
  const service: Service = { store, config: { gates: { PodFailurePolicyName: true }, validateSpecs: true }, snapshotEvery: 5 };
  const trace = new TraceRecorder('2026-03-01T00:00:00Z', 'a1b2');
  const job = trace.job('c1', 0, 'ml', 'train', {
    completions: PODS, parallelism: PODS, completionMode: 'Indexed', backoffLimit: 100,
    successPolicy: { rules: [{ succeededIndexes: '0' }] },
  });
  const pods = Array.from({ length: PODS }, (_, i) => trace.runPod(job, 1, i));
  // Workers finish one per second, every fourth failing; the leader succeeds last; the cluster
  // then deletes the pods jobfold asked to terminate.
  for (let i = 1; i < PODS / 2; i++) trace.exitPod(pods[i]!, 1 + i, i % 4 === 0 ? 1 : 0);
  trace.exitPod(pods[0]!, PODS, 0);
  for (let i = PODS / 2; i < PODS; i++) trace.deletePod(pods[i]!, PODS + 5);
  stream = await playTrace(service, trace);
  head = (await store.read(stream)).head;
  get = queryClient(service);
});

async function replayTo(seq: number) {
  const { entries } = await readLog(store as EventStore, stream, (e) => e.seq <= seq);
  return foldJobLog({ gates: { PodFailurePolicyName: true }, validateSpecs: true }, entries);
}

describe('a long history with snapshots at positions', () => {
  it('has the history this spec is about: Complete, pods terminated, many snapshots', async () => {
    const { state } = await replayTo(head);
    expect(jobStatus(state).conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
    expect(head).toBeGreaterThan(120);
    expect((await store.loadSnapshot(stream, { atOrBefore: head / 2 }))?.seq).toBeGreaterThan(head / 2 - 10);
  });

  it('answers status?at= every position as a replay from the start does', async () => {
    for (let seq = 0; seq <= head; seq++) {
      const { status, body } = await get(path('/status'), { at: String(seq) });
      expect(status).toBe(200);
      const { state } = await replayTo(seq);
      expect(body.status, `at ${seq}`).toEqual(JSON.parse(JSON.stringify(jobStatus(state))));
      expect(body.at.seq).toBe(seq);
    }
  });

  it('answers status?at=<time> with the prefix recorded by then', async () => {
    const { entries } = await readLog(store, stream);
    for (const probe of [entries[0]!, entries[Math.floor(entries.length / 3)]!, entries.at(-1)!]) {
      const { body } = await get(path('/status'), { at: probe.recordedAt });
      const last = entries.filter((e) => e.recordedAt <= probe.recordedAt).at(-1)!;
      expect(body.at).toEqual({ seq: last.seq, recordedAt: last.recordedAt });
      expect(body.status).toEqual(JSON.parse(JSON.stringify(jobStatus((await replayTo(last.seq)).state))));
    }
    expect((await get(path('/status'), { at: '2020-01-01T00:00:00Z' })).body.at).toEqual({ seq: 0 });
  });

  it('explains the Job as a replay of the whole log does', async () => {
    const { status, body } = await get(path('/explain'));
    expect(status).toBe(200);
    expect(ExplanationSchema.parse(body)).toEqual(body);
    const { state, events } = await replayTo(head);
    const full = JSON.parse(JSON.stringify(explainJob(state, events)));
    expect(body.terminatedPods).toHaveLength(PODS / 2);
    expect(body).toEqual(full);
  });

  it('explains without reading the log from the start: the tail, and a few entries around each decision', async () => {
    const before = store.entriesRead;
    const { body } = await get(path('/explain'), { podsAfter: String(head) });
    expect(body.conditions.map((c: { decidedBy: number }) => c.decidedBy)).toEqual([expect.any(Number), expect.any(Number)]);
    expect(store.entriesRead - before).toBeLessThan(head / 2);
  });

  it('pages the terminated pods: each exactly once, in log order, however small the page', async () => {
    const { state, events } = await replayTo(head);
    const expected = JSON.parse(JSON.stringify(explainJob(state, events).terminatedPods));
    for (const limit of [1, 7, 29]) {
      const listed: unknown[] = [];
      let after = 0;
      for (let page = 0; page < 200; page++) {
        const { status, body } = await get(path('/explain'), { podsAfter: String(after), podsLimit: String(limit) });
        expect(status).toBe(200);
        listed.push(...body.terminatedPods);
        if (body.terminatedPodsNextAfter === undefined) break;
        expect(body.terminatedPodsNextAfter).toBeGreaterThan(after);
        after = body.terminatedPodsNextAfter;
      }
      expect(listed).toEqual(expected);
    }
  });

  it('pages the history at twice the page size and more: every entry exactly once, across snapshots', async () => {
    const { entries } = await readLog(store, stream);
    for (const limit of [1, 5, Math.ceil(head / 2) - 1, Math.ceil(head / 2)]) {
      const seen: number[] = [];
      let after = 0;
      for (let page = 0; page <= head; page++) {
        const { body } = await get(path('/history'), { after: String(after), limit: String(limit) });
        seen.push(...body.entries.map((e: { seq: number }) => e.seq));
        if (body.nextAfter === undefined) break;
        after = body.nextAfter;
      }
      expect(seen, `limit ${limit}`).toEqual(entries.map((e) => e.seq));
    }
  });
});

describe('the Job view and the timeline of a long history', () => {
  it('shows the Job as a replay of the whole log does: status, spec, explanation, every command', async () => {
    const { status, body } = await get(path());
    expect(status).toBe(200);
    const { state, events } = await replayTo(head);
    const full = JSON.parse(JSON.stringify({
      status: jobStatus(state),
      explanation: explainJob(state, events),
      commands: issuedCommands(events, state.settings?.managedBy, stream.uid),
    }));
    expect(body.status).toEqual(full.status);
    expect(body.explanation).toEqual({
      outcome: full.explanation.outcome,
      summary: full.explanation.summary,
      conditions: full.explanation.conditions.map(({ type, status, reason, sentence }: Record<string, string>) => ({ type, status, reason, sentence })),
      rejection: full.explanation.rejection,
    });
    expect(body.commands.length).toBeGreaterThan(0);
    expect(body.commands).toEqual(full.commands);
    expect(body.commandsFrom).toBe(1);
    const entries = (await readLog(store, stream)).entries;
    expect(body.log).toEqual({ head, lastRecordedAt: entries.at(-1)!.recordedAt });
  });

  it('lists the commands of the last entries only on a log longer than its window, and says where they start', async () => {
    const window = Math.floor(head / 3);
    const before = store.entriesRead;
    const summary = (await store.findJob({ kind: 'Job', clusterId: 'c1', namespace: 'ml', name: 'train' }))!;
    const view = await storedJobView({ store, config: DEFAULT_FOLD_CONFIG, cursorKey: Buffer.alloc(32) }, summary, stream, window);
    expect(store.entriesRead - before).toBeLessThan(head * 0.75);
    const { state, events } = await replayTo(head);
    const all = JSON.parse(JSON.stringify(issuedCommands(events, state.settings?.managedBy, stream.uid)));
    expect(view.commandsFrom).toBe(head - window + 1);
    expect(JSON.parse(JSON.stringify(view.commands))).toEqual(all.filter((c: { seq: number }) => c.seq >= head - window + 1));
    expect(view.status).toEqual(jobStatus(state));
  });

  it('ends the commands where they would name more pods than the view lists, and says where they start', async () => {
    const summary = (await store.findJob({ kind: 'Job', clusterId: 'c1', namespace: 'ml', name: 'train' }))!;
    const { state, events } = await replayTo(head);
    const all = JSON.parse(JSON.stringify(issuedCommands(events, state.settings?.managedBy, stream.uid)));
    const podsOf = (commands: { pods?: unknown[] }[]) => commands.reduce((n, c) => n + (c.pods?.length ?? 0), 0);
    const withPods = all.filter((c: { pods?: unknown[] }) => (c.pods?.length ?? 0) > 0);
    expect(podsOf(withPods.slice(-1))).toBeGreaterThan(1);
    // A cap below the last pod command's pods: that command is listed whole, nothing before it.
    const view = await storedJobView({ store, config: DEFAULT_FOLD_CONFIG, cursorKey: Buffer.alloc(32) }, summary, stream, head, 1);
    const listed = JSON.parse(JSON.stringify(view.commands));
    expect(view.commandsFrom).toBe(withPods.at(-1).seq);
    expect(view.commandsFrom).toBeGreaterThan(1);
    expect(listed).toEqual(all.filter((c: { seq: number }) => c.seq >= view.commandsFrom));
    expect(podsOf(listed)).toBe(podsOf(withPods.slice(-1)));
    // A cap that holds every pod lists every command.
    const roomy = await storedJobView({ store, config: DEFAULT_FOLD_CONFIG, cursorKey: Buffer.alloc(32) }, summary, stream, head, podsOf(all));
    expect(roomy.commandsFrom).toBe(1);
    expect(view.status).toEqual(jobStatus(state));
  });

  it('lists every condition change as a replay of the whole log does, reading a part of the log', async () => {
    const before = store.entriesRead;
    const { status, body } = await get(path('/timeline'));
    expect(status).toBe(200);
    expect(store.entriesRead - before).toBeLessThan(head / 2);
    const { events } = await replayTo(head);
    const expected = events.flatMap((e) => (e.type === 'JobConditionChanged'
      ? [{ seq: e.seq, at: e.condition.lastTransitionTime, type: e.condition.type, status: e.condition.status, reason: e.condition.reason, message: e.condition.message }]
      : []));
    expect(expected.map((t) => t.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
    expect(body.transitions).toEqual(expected);
    const entries = (await readLog(store, stream)).entries;
    expect(body).toMatchObject({ head, firstRecordedAt: entries[0]!.recordedAt, lastRecordedAt: entries.at(-1)!.recordedAt });
  });
});
