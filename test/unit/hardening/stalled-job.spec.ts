import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StoreLimitError, type CommitInput, type CommitResult, type StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { streamKey } from '../../../shared/log/stream-key.ts';
import { isDeterministicFailure, stallRecord } from '../../../shared/decide/stall.ts';
import { aJob, aPod, at } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podObservedEvent } from '../../support/inbound-events.ts';
import { CrashableStore, createServiceHarness } from '../../support/service-harness.ts';
import { observationsOf, sampleEvents, writeDeps, writeJob } from '../writer/write-support.ts';

// Issue 14 §1: a Job that cannot be decided is parked where everyone sees it (its summary says
// `stalled: {error, since}`, the handler counts jobs_stalled), and every other Job goes on.

/** A store whose decision commits for one Job exceed a limit, as an oversized outbox item would. */
class OneJobOverLimit extends InMemoryEventStore {
  broken: string | undefined;
  override async commit(stream: StreamId, input: CommitInput): Promise<CommitResult> {
    if (streamKey(stream) === this.broken && input.entries.length > 0) throw new StoreLimitError('outbox item bytes', 409_600, 500_000);
    return super.commit(stream, input);
  }
}

const summaryOf = (store: InMemoryEventStore, name: string, stream: StreamId) =>
  store.findJob({ kind: 'Job', clusterId: stream.clusterId, namespace: stream.namespace, name, uid: stream.uid });

describe('Given two Jobs, one of which fails to commit on every retry', () => {
  it('the writer parks that one as stalled with the error, writes the other, and fails no record', async () => {
    const store = new OneJobOverLimit();
    const h = createServiceHarness({ store, now: at(1) });
    const wedged = aJob({}, { uid: randomUUID(), name: 'wedged' });
    const healthy = aJob({}, { uid: randomUUID(), name: 'healthy' });
    await h.deliver([jobObservedEvent(wedged, at(0)), jobObservedEvent(healthy, at(0))]);
    store.broken = streamKey(jobStream(wedged));

    const failed = await h.deliver([podObservedEvent(aPod({ name: 'w' }), wedged, at(1)), podObservedEvent(aPod({ name: 'h' }), healthy, at(1))]);

    expect(failed).toEqual([]);
    const stalled = await summaryOf(store, 'wedged', jobStream(wedged));
    expect(stalled?.stalled).toEqual({ error: 'StoreLimitError: outbox item bytes is 500000, at most 409600 allowed', since: at(1) });
    expect(stalled?.name).toBe('wedged');
    // the wedged Job's record went to the rejected-events destination with the error
    expect(h.rejected.map((r) => r.reason)).toEqual([expect.stringMatching(/StoreLimitError/)]);
    expect((await h.log(jobStream(healthy))).map((e) => e.type)).toContain('PodObserved');
    expect((await summaryOf(store, 'healthy', jobStream(healthy)))?.stalled).toBeUndefined();
  });

  it('keeps the first time it stalled, and clears the stall once a batch commits', async () => {
    const store = new OneJobOverLimit();
    const h = createServiceHarness({ store, now: at(1) });
    const wedged = aJob({}, { uid: randomUUID(), name: 'wedged' });
    await h.deliver([jobObservedEvent(wedged, at(0))]);
    store.broken = streamKey(jobStream(wedged));
    await h.deliver([podObservedEvent(aPod({ name: 'p', nodeName: null, phase: 'Pending' }), wedged, at(1))]);
    h.clock.now = at(5);
    await h.deliver([podObservedEvent(aPod({ name: 'p' }), wedged, at(4))]);
    expect((await summaryOf(store, 'wedged', jobStream(wedged)))?.stalled?.since).toBe(at(1));

    store.broken = undefined;
    h.clock.now = at(6);
    await h.deliver([podObservedEvent(aPod({ name: 'p', ready: true }), wedged, at(6))]);
    expect((await summaryOf(store, 'wedged', jobStream(wedged)))?.stalled).toBeUndefined();
  });

  it('parks a Job whose very first batch fails under the name that batch observed', async () => {
    const store = new OneJobOverLimit();
    const h = createServiceHarness({ store, now: at(1) });
    const wedged = aJob({}, { uid: randomUUID(), name: 'first-batch' });
    store.broken = streamKey(jobStream(wedged));

    const failed = await h.deliver([jobObservedEvent(wedged, at(0)), podObservedEvent(aPod({ name: 'p' }), wedged, at(1))]);

    expect(failed).toEqual([]);
    const parked = await summaryOf(store, 'first-batch', jobStream(wedged));
    expect(parked?.name).toBe('first-batch');
    expect(parked?.stalled).toEqual({ error: 'StoreLimitError: outbox item bytes is 500000, at most 409600 allowed', since: at(1) });
    expect(h.rejected.map((r) => r.reason)).toEqual([expect.stringMatching(/StoreLimitError/), expect.stringMatching(/StoreLimitError/)]);
  });
});

/** A store whose snapshot loads fail for one Job, as a fold error on its log would. */
class OneJobUnreadable extends InMemoryEventStore {
  broken: string | undefined;
  override async loadSnapshot(...args: Parameters<InMemoryEventStore['loadSnapshot']>): ReturnType<InMemoryEventStore['loadSnapshot']> {
    if (streamKey(args[0]) === this.broken) throw new RangeError('Invalid time value');
    return super.loadSnapshot(...args);
  }
}

describe('Given a parked Job whose next successful write decides nothing', () => {
  it('clears the stall at once, without adding to the log', async () => {
    const store = new OneJobUnreadable();
    const job = aJob({}, { uid: randomUUID(), name: 'recovering' });
    const observed = jobObservedEvent(job, at(0));
    // each step a new writer process: it loads the Job from the store
    const fresh = (seconds: number) => createServiceHarness({ store, now: at(seconds) });
    await fresh(1).deliver([observed]);
    store.broken = streamKey(jobStream(job));
    // the same event again (a redelivery): the writer cannot load the Job and parks it
    await fresh(2).deliver([observed]);
    expect((await summaryOf(store, 'recovering', jobStream(job)))?.stalled).toEqual({ error: 'RangeError: Invalid time value', since: at(2) });
    const h = fresh(3);
    const logBefore = await h.log(jobStream(job));

    store.broken = undefined;
    expect(await h.deliver([observed])).toEqual([]);

    const summary = await summaryOf(store, 'recovering', jobStream(job));
    expect(summary?.stalled).toBeUndefined();
    expect(summary?.name).toBe('recovering');
    expect(await h.log(jobStream(job))).toEqual(logBefore);
  });
});

describe('Given the single writer parks a Job (its commit over a store limit)', () => {
  const written = observationsOf(sampleEvents('samples/named-failure.jsonl'));
  const stream = written[0]!.stream;
  const observations = written.map((w) => w.observation);
  const train = (store: CrashableStore) => store.findJob({ kind: 'Job', clusterId: stream.clusterId, namespace: stream.namespace, name: 'train', uid: stream.uid });

  async function parkedAfterFirstBatch() {
    const store = new CrashableStore(new InMemoryEventStore());
    const deps = writeDeps(store);
    await writeJob(deps, stream, observations.slice(0, 4));
    store.beforeCommit = async () => {
      store.beforeCommit = undefined;
      throw new StoreLimitError('commit (bytes)', 3_000_000, 4_000_000);
    };
    const parked = await writeJob(deps, stream, observations.slice(4, 6));
    expect(parked.stalled?.error).toMatch(/StoreLimitError/);
    expect((await train(store))?.stalled).toBeDefined();
    return { store, deps };
  }

  it('clears the stall with the next batch that writes', async () => {
    const { store, deps } = await parkedAfterFirstBatch();
    await writeJob(deps, stream, observations.slice(4));
    expect((await train(store))?.stalled).toBeUndefined();
  });

  it('clears it even when the next batch holds only observations already logged', async () => {
    const { store, deps } = await parkedAfterFirstBatch();
    const head = (await store.read(stream)).head;
    const outcome = await writeJob(deps, stream, observations.slice(0, 4));
    expect(outcome.logged).toBe(0);
    expect((await train(store))?.stalled).toBeUndefined();
    expect((await store.read(stream)).head).toBe(head);
  });
});

describe('Given a Job whose store calls fail with undici\'s TypeError (fetch failed, ECONNRESET)', () => {
  it('fails the record for a retry and does not park the Job', async () => {
    const store = new OneJobOverLimit();
    const h = createServiceHarness({ store, now: at(1) });
    const job = aJob({}, { uid: randomUUID(), name: 'unlucky' });
    await h.deliver([jobObservedEvent(job, at(0))]);
    const reset = new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' }) });
    store.commit = () => Promise.reject(reset);

    const failed = await h.deliver([podObservedEvent(aPod({ name: 'p' }), job, at(1))]);

    expect(failed).toHaveLength(1);
    expect(h.rejected).toEqual([]);
    expect((await summaryOf(store, 'unlucky', jobStream(job)))?.stalled).toBeUndefined();
  });
});

describe('isDeterministicFailure', () => {
  it.each([
    [new StoreLimitError('entry bytes', 1, 2), true],
    [new RangeError('Invalid time value'), true],
    [new TypeError('x is undefined'), true],
    [Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }), false],
    [new Error('socket hang up'), false],
    [Object.assign(new TypeError('Cannot convert a BigInt'), { code: 'ERR_INVALID_ARG_TYPE' }), true],
  ])('%s → %s', (error, expected) => {
    expect(isDeterministicFailure(error)).toBe(expected);
  });

  // Issue 14: a transport failure that wears a deterministic class is retried, never parked.
  const socketError = (code: string) => Object.assign(new Error(`read ${code}`), { code, syscall: 'read', errno: -104 });
  it.each([
    ['undici fetch failed, ECONNRESET cause', new TypeError('fetch failed', { cause: socketError('ECONNRESET') })],
    ['undici fetch failed, no cause', new TypeError('fetch failed')],
    ['a TypeError caused by a DNS failure', new TypeError('request failed', { cause: socketError('EAI_AGAIN') })],
    ['undici socket error two causes deep', new TypeError('terminated', { cause: new Error('other side closed', { cause: Object.assign(new Error('closed'), { code: 'UND_ERR_SOCKET' }) }) })],
    ['connection refused to every address', new TypeError('fetch failed', { cause: new AggregateError([socketError('ECONNREFUSED')]) })],
    ['an AWS SDK error with a RangeError name clash', Object.assign(new RangeError('bad'), { $metadata: { httpStatusCode: 500 } })],
    ['a timeout', new TypeError('x', { cause: Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' }) })],
  ])('%s → transient', (_name, error) => {
    expect(isDeterministicFailure(error)).toBe(false);
  });

  it('a real failed fetch is transient', async () => {
    const error = await fetch('http://127.0.0.1:1/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(isDeterministicFailure(error)).toBe(false);
  });

  it('bounds the recorded error', () => {
    expect(stallRecord(new RangeError('x'.repeat(100_000)), at(0), undefined).error.length).toBeLessThanOrEqual(1024);
  });
});
