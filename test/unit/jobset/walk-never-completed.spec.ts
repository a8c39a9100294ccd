import { describe, expect, it } from 'vitest';
import { EventBuilder } from '../../../functions/kube/objects/event-objects.ts';
import { explainJobSet, isJobSetDecisionType, type JobSetDecisionEvent, type JobSetObservation } from '../../../shared/jobset/index.ts';
import type { LogEntry } from '../../../shared/log/event-store.ts';
import { at, jobDeleted, jobFailed, jobObserved, jobReady, jobSetObserved, versioned } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

// Issue 21: an InOrder JobSet (a: 1 replica, then b: 2) whose walk never completed on the cluster:
// a user deleted the ready b-1 in the second b-0 became ready (the deletion first), and the Job the
// controller created again under b-1's name never started. Delivered with b-0's readiness before
// the deletion, the fold saw every replica started and wrote StartupPolicyCompleted (and, on a
// suspension revealed late, Suspended False / ResumeJobs); the deletion, arriving after, took
// nothing back. Upstream writes StartupPolicyCompleted only in the pass where the walk completes:
// the cluster never wrote it. Now the condition is taken out (a logged retraction naming the
// deletion) and the walk is in progress again. Counterexample of
// test/property/jobset/user-delete-orders.property.spec.ts at seed 21 (history-55, 7 of 10), shrunk.

const spec = (suspend: boolean) => ({ replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }], startupPolicy: { startupPolicyOrder: 'InOrder' }, failurePolicy: { maxRestarts: 1 }, suspend });
const withUid = (event: JobSetObservation, uid: string): JobSetObservation =>
  event.type === 'JobObserved' ? { ...event, job: { ...event.job, metadata: { ...event.job.metadata, uid } } } : ({ ...event, uid } as JobSetObservation);

const running = versioned(1, jobSetObserved(spec(false), { seconds: 0 }));
const a0 = withUid(versioned(2, jobReady('a', 0, { seconds: 0 })), 'a0');
const b1 = withUid(versioned(3, jobReady('b', 1, { seconds: 60 })), 'b1-first');
const b1Gone = (seconds: number) => withUid(jobDeleted('b', 1, seconds), 'b1-first');
const b0 = withUid(versioned(4, jobReady('b', 0, { seconds: 100 })), 'b0');
const b1Again = withUid(versioned(5, jobObserved('b', 1, { seconds: 100 })), 'b1-again');
const types = (events: readonly JobSetObservation[]) => given(...events).whenSettled({ now: at(200) }).status.conditions.map((c) => `${c.type}=${c.status}`);

describe('an InOrder JobSet whose ready Job a user deleted in the second the walk would have completed (user-delete history-55)', () => {
  it('given the events in order, when settled, then the walk is in progress and no StartupPolicyCompleted was written', () => {
    expect(types([running, a0, b1, b1Gone(100), b0, b1Again])).toEqual(['StartupPolicyInProgress=True']);
  });

  it('given b-0\'s readiness before the deletion, when the deletion arrives, then StartupPolicyCompleted is taken out, as in order', () => {
    expect(types([running, a0, b1, b0])).toEqual(['StartupPolicyInProgress=False', 'StartupPolicyCompleted=True']);
    expect(types([running, a0, b1, b0, b1Gone(100), b1Again])).toEqual(['StartupPolicyInProgress=True']);
    expect(types([b1Again, b0, running, a0, b1, b1Gone(100)])).toEqual(['StartupPolicyInProgress=True']);
  });

  it('given the same, when explained, then the retraction names the deleted Job and says the cluster never wrote the condition', () => {
    const outcome = given(running, a0, b1, b0, b1Gone(100)).whenSettled({ now: at(200) });
    const decisions = outcome.log.flatMap((event, i) => (isJobSetDecisionType(event.type) ? [{ seq: i + 1, event: event as JobSetDecisionEvent }] : []));
    const sentences = explainJobSet(outcome.state, decisions).events.map((e) => e.sentence);
    expect(sentences).toContainEqual(expect.stringContaining('StartupPolicyCompleted (True) taken back: the cluster never wrote it, the walk never completed — its deletion of js-b-1 (uid b1-first), started 2026-01-01T00:01:00Z, deleted 2026-01-01T00:01:40Z'));
  });

  it('given the same, when its kubectl Events are built, then the retraction is a Warning ConditionRetracted', () => {
    const outcome = given(running, a0, b1, b0, b1Gone(100)).whenSettled({ now: at(200) });
    const entries: LogEntry[] = outcome.log.map((event, i) => ({ eventId: `e${i + 1}`, type: event.type, observedAt: event.at, body: event, seq: i + 1, recordedAt: event.at }));
    const builder = new EventBuilder({ kind: 'JobSet', namespace: 'default', name: 'js', uid: 'js-uid' }, { jobSet: outcome.state });
    const retracted = entries.flatMap((entry) => builder.eventsOf(entry)).filter((e) => e.reason === 'ConditionRetracted');
    expect(retracted).toEqual([expect.objectContaining({ type: 'Warning', message: expect.stringContaining('StartupPolicyCompleted taken back') })]);
  });

  it('given the deletion a second after b-0 became ready, when settled, then the walk completed first: StartupPolicyCompleted stands (False: the walk began again)', () => {
    expect(types([running, a0, b1, b0, b1Gone(101)])).toEqual(['StartupPolicyInProgress=True', 'StartupPolicyCompleted=False']);
  });

  it('given a finished Job deleted in that second (a TTL of 0 deletes finished Jobs, not a user), when settled, then the walk counts it: StartupPolicyCompleted stands (False: the walk began again)', () => {
    const b1Done = withUid(versioned(6, jobObserved('b', 1, { seconds: 90, succeeded: 1, conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: at(90) }] })), 'b1-first');
    expect(types([running, a0, b1, b1Done, b0, b1Gone(100)])).toEqual(['StartupPolicyInProgress=True', 'StartupPolicyCompleted=False']);
  });
});

describe('the same JobSet restarted on b-0\'s failure, then suspended and resumed, delivered with the resumption first and the deletion last', () => {
  const b0Failed = withUid(versioned(6, jobFailed('b', 0, { seconds: 101 })), 'b0');
  const suspended = versioned(7, jobSetObserved(spec(true), { seconds: 106 }));
  const resumed = versioned(8, jobSetObserved(spec(false), { seconds: 111 }));
  const inOrder = [running, a0, b1, b1Gone(100), b0, b0Failed, suspended, resumed];

  it('given the events in order, when settled, then the resumption found the next walk not begun: Suspended True', () => {
    expect(types(inOrder)).toContain('Suspended=True');
    expect(types(inOrder)).not.toContain('StartupPolicyCompleted=True');
  });

  it('given the resumption before the suspension and the deletion last, when settled, then the conditions are as in order', () => {
    const late = given(a0, b1, b0, resumed, suspended, b0Failed, b1Gone(100), running).whenSettled({ now: at(200) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(given(...inOrder).whenSettled({ now: at(200) }).status));
  });
});
