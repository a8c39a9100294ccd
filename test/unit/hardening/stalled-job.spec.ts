import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StoreLimitError, type CommitInput, type CommitResult, type StreamId } from '../../../shared/app/event-store.ts';
import { InMemoryEventStore } from '../../../shared/app/in-memory-event-store.ts';
import { streamKey } from '../../../shared/app/stream-key.ts';
import { isDeterministicFailure, stallRecord } from '../../../shared/app/stall.ts';
import { aJob, at } from '../../support/builders.ts';
import { jobObservedEvent, jobStream } from '../../support/inbound-events.ts';
import { createServiceHarness } from '../../support/service-harness.ts';

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
  it('parks that one as stalled with the error, reconciles the other, and fails no record', async () => {
    const store = new OneJobOverLimit();
    const h = createServiceHarness({ store, now: at(1) });
    const wedged = aJob({}, { uid: randomUUID(), name: 'wedged' });
    const healthy = aJob({}, { uid: randomUUID(), name: 'healthy' });
    store.broken = streamKey(jobStream(wedged));
    await h.deliver([jobObservedEvent(wedged, at(0)), jobObservedEvent(healthy, at(0))]);

    const response = await h.reconcile(jobStream(wedged), jobStream(healthy));

    expect(response.batchItemFailures).toEqual([]);
    const stalled = await summaryOf(store, 'wedged', jobStream(wedged));
    expect(stalled?.stalled).toEqual({ error: 'StoreLimitError: outbox item bytes is 500000, at most 409600 allowed', since: at(1) });
    expect(stalled?.name).toBe('wedged');
    expect((await h.log(jobStream(healthy))).map((e) => e.type)).toContain('StartTimeSet');
    expect((await summaryOf(store, 'healthy', jobStream(healthy)))?.stalled).toBeUndefined();
  });

  it('keeps the first time it stalled, and clears the stall once a reconcile commits', async () => {
    const store = new OneJobOverLimit();
    const h = createServiceHarness({ store, now: at(1) });
    const wedged = aJob({}, { uid: randomUUID(), name: 'wedged' });
    store.broken = streamKey(jobStream(wedged));
    await h.deliver([jobObservedEvent(wedged, at(0))]);
    await h.reconcile(jobStream(wedged));
    h.clock.now = at(5);
    await h.reconcile(jobStream(wedged));
    expect((await summaryOf(store, 'wedged', jobStream(wedged)))?.stalled?.since).toBe(at(1));

    store.broken = undefined;
    h.clock.now = at(6);
    await h.reconcile(jobStream(wedged));
    expect((await summaryOf(store, 'wedged', jobStream(wedged)))?.stalled).toBeUndefined();
  });
});

describe('isDeterministicFailure', () => {
  it.each([
    [new StoreLimitError('entry bytes', 1, 2), true],
    [new RangeError('Invalid time value'), true],
    [new TypeError('x is undefined'), true],
    [Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }), false],
    [new Error('socket hang up'), false],
  ])('%s → %s', (error, expected) => {
    expect(isDeterministicFailure(error)).toBe(expected);
  });

  it('bounds the recorded error', () => {
    expect(stallRecord(new RangeError('x'.repeat(100_000)), at(0), undefined).error.length).toBeLessThanOrEqual(1024);
  });
});
