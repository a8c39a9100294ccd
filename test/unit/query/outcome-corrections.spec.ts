import { describe, expect, it } from 'vitest';
import { EventBuilder } from '../../../functions/kube/objects/event-objects.ts';
import { JobSetExplanationSchema } from '../../../functions/query/jobsets/jobset-explanation-schemas.ts';
import type { LogEntry } from '../../../shared/log/event-store.ts';
import { decisionEntry, isDecisionType } from '../../../shared/job/log-codec.ts';
import type { Decision } from '../../../shared/job/decisions.ts';
import { ExplanationSchema } from '../../../functions/query/schemas/explanation-schemas.ts';
import type { PodObserved } from '../../../shared/job/events.ts';
import { explainJob } from '../../../shared/job/explain.ts';
import type { JobSetEvent } from '../../../shared/jobset/events.ts';
import { explainJobSet, type LoggedJobSetDecision } from '../../../shared/jobset/explain.ts';
import { isJobSetDecisionType, type JobSetDecisionEvent } from '../../../shared/jobset/decision-events.ts';
import { aJob, anIndexedJob, aPod, at as jobAt, jobObserved, podObserved, tick, withSpec } from '../../support/builders.ts';
import { given as givenJob } from '../../support/job-spec.ts';
import { at, jobFailed, jobSetObserved, jobSucceeded } from '../jobset/support/builders.ts';
import { given as givenJobSet } from '../jobset/support/given.ts';

// Issue 20, one way to do each thing: an outcome jobfold decided for an object it does not run
// and took back (issue 21, evidence that came first on the cluster's clock arrived late) reads the
// same for both kinds: `corrections` in the explanation (shared/read-model/explanation.ts
// `OutcomeCorrection`), one sentence ending the summary, the same API schema. The logs hold one
// shape too (shared/decide/outcome-correction.ts): a Job's JobOutcomeCorrected, a JobSet's
// JobSetOutcomeCorrected, each followed by the ordinary decision that replaces what it took back.

const pod = (name: string, rv: number, when: string, options: Parameters<typeof aPod>[0] = {}): PodObserved =>
  ({ ...podObserved(aPod({ name, resourceVersion: String(rv), ...options }), when), eventId: `${name}/${rv}` });

const jobSetDecisions = (log: readonly JobSetEvent[]): LoggedJobSetDecision[] =>
  log.flatMap((event, i) => (isJobSetDecisionType(event.type) ? [{ seq: i + 1, event: event as JobSetDecisionEvent }] : []));

/** A log as stored: each entry at its position (observations carry no Event, so only decisions are kept). */
const stored = (entries: readonly { seq: number; type: string; at: string; body: unknown }[]): LogEntry[] =>
  entries.map(({ seq, type, at: observedAt, body }) => ({ eventId: `e${seq}`, type, observedAt, body, seq, recordedAt: observedAt }));

const failJobFirst = () => {
  // outcome-correction.spec.ts: index 1 succeeds at 0:30, index 0 fails at 10:00 (FailJob); the failure arrives first.
  const job = aJob({
    completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimit: 6,
    successPolicy: { rules: [{ succeededCount: 1 }] },
    podFailurePolicy: { rules: [{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] },
  });
  return givenJob(job, pod('a', 1, jobAt(10), { index: 0 }), pod('a', 3, jobAt(600), { index: 0, phase: 'Failed', conditions: [{ type: 'DisruptionTarget' }] }),
    pod('b', 2, jobAt(30), { index: 1, phase: 'Succeeded' }));
};

const suspendedBeforeEarlierSuccess = () => {
  // reordered-deliveries.spec.ts, cluster history 21: index 0 succeeded at 0:00 (the success
  // policy met), the Job was suspended at 6:40; the suspension arrives first and is enacted.
  const job = anIndexedJob(2, { successPolicy: { rules: [{ succeededIndexes: '0' }] } });
  const version = (observed: ReturnType<typeof jobObserved>, rv: string) => ({ ...observed, job: { ...observed.job, metadata: { ...observed.job.metadata, resourceVersion: rv } } });
  const created = version(jobObserved(withSpec(job, { suspend: false }), jobAt(0)), '1');
  const suspended = version(jobObserved(withSpec(job, { suspend: true }), jobAt(400)), '3');
  return givenJob(null, created, suspended, pod('a', 2, jobAt(1), { index: 0, phase: 'Succeeded', finishedAt: jobAt(0) }), tick(jobAt(900)));
};

const jobEvents = ({ state, log }: { state: Parameters<typeof explainJob>[0]; log: Parameters<typeof explainJob>[1] & object }) => {
  const decisions = log.flatMap((event, i) => (isDecisionType(event.type) ? [{ seq: i + 1, ...decisionEntry(event as Decision) }] : []));
  const builder = new EventBuilder({ kind: 'Job', namespace: 'default', name: 'job', uid: 'job-uid' }, { job: state });
  return stored(decisions.map((d) => ({ seq: d.seq, type: d.type, at: d.observedAt, body: d.body }))).flatMap((entry) => builder.eventsOf(entry));
};

/** What a suspension taken back reads: its own sentence, not a beaten criterion's. */
const SUSPENSION_TAKEN_BACK =
  ` jobfold took back Suspended (the Job seen suspended at ${jobAt(400)}) at ${jobAt(400)}: evidence that arrived later showed SuccessPolicy met before the suspension on the cluster's clock, at ${jobAt(1)}, and the controller suspends only a Job no finish criterion holds.`;

const successArrivingLate = () => {
  // cluster-clock.spec.ts: b-0 completes at :05, a-0 fails at :10; the failure and the JobSet arrive first.
  const spec = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b' }], successPolicy: { operator: 'Any' } }, { seconds: 10 });
  return givenJobSet(jobFailed('a', 0, { seconds: 10 }), spec, jobSucceeded('b', 0, { seconds: 5 })).whenSettled({ now: at(10) });
};

describe('a corrected outcome, explained the same way for Jobs and JobSets', () => {
  it('given a Job failed on a FailJob failure before its earlier success arrived, then its correction is listed, summarised and served', () => {
    failJobFirst()
      .when()
      .then(({ state, log }) => {
        const explained = explainJob(state, log);
        const correctedAt = log.findIndex((e) => e.type === 'JobOutcomeCorrected') + 1;
        expect(explained.corrections).toEqual([
          { decidedBy: correctedAt, at: expect.any(String), retracted: ['FailureTarget', 'Failed'], retractedMetAt: jobAt(600), reason: 'SuccessPolicy', metAt: jobAt(30) },
        ]);
        expect(explained.summary).toContain(`jobfold took back FailureTarget and Failed (its criterion met at ${jobAt(600)})`);
        expect(ExplanationSchema.parse(explained).corrections).toEqual(explained.corrections);
      });
  });

  it('given a JobSet failed before the success that met its policy earlier arrived, then its correction reads as a Job\'s does', () => {
    const late = successArrivingLate();
    const decisions = jobSetDecisions(late.log);
    const failed = decisions.find((d) => d.event.type === 'JobSetFailed')?.seq;
    const corrected = decisions.find((d) => d.event.type === 'JobSetOutcomeCorrected')?.seq;
    expect(decisions.find((d) => d.seq === corrected! + 1)?.event.type).toBe('JobSetCompleted');
    const explained = explainJobSet(late.state, decisions);
    expect(explained.corrections).toEqual([
      { decidedBy: corrected, corrects: failed, at: at(10), retracted: ['Failed'], retractedMetAt: at(10), reason: 'AllJobsCompleted', metAt: at(5) },
    ]);
    expect(explained.summary).toContain(`jobfold took back Failed, decided at #${failed}, (its criterion met at ${at(10)}) at ${at(10)}: evidence that arrived later showed AllJobsCompleted met first on the cluster's clock, at ${at(5)}.`);
    // As the explain route serves it: the identity with its cluster, the decisions' window.
    const served = JobSetExplanationSchema.parse({ ...explained, jobSet: { clusterId: 'c1', ...explained.jobSet }, eventsFrom: 1 });
    expect(served.corrections).toEqual(explained.corrections);
  });

  it('given a JobSet restarted on the later of two failures read together, then the renamed restart is a correction too', () => {
    const rule = { name: 'restartOnBackoff', action: 'RestartJobSet', onJobFailureReasons: ['BackoffLimitExceeded'], targetReplicatedJobs: [] };
    const spec = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 3 }], failurePolicy: { maxRestarts: 3, rules: [rule] } }, { seconds: 4 });
    const late = givenJobSet(jobFailed('b', 0, { seconds: 4 }), spec, jobFailed('b', 2, { seconds: 2 })).whenSettled({ now: at(5) });
    const decisions = jobSetDecisions(late.log);
    const restarts = decisions.filter((d) => d.event.type === 'JobSetRestarted').map((d) => d.seq);
    expect(restarts).toHaveLength(2);
    expect(decisions.find((d) => d.seq === restarts[1]! - 1)?.event.type).toBe('JobSetOutcomeCorrected');
    expect(explainJobSet(late.state, decisions).corrections).toEqual([
      { decidedBy: restarts[1]! - 1, corrects: restarts[0], at: at(5), retracted: ['RestartingJobSet'], retractedMetAt: at(4), reason: 'FailurePolicy_restartOnBackoff', metAt: at(2) },
    ]);
  });

  it('given a JobSet restarted on one failure while the cluster failed it on another read with it, then the failure correcting the restart reads the same', () => {
    const rules = [
      { name: 'failOnDeadline', action: 'FailJobSet', onJobFailureReasons: ['DeadlineExceeded'], targetReplicatedJobs: [] },
      { name: 'restartOnBackoff', action: 'RestartJobSet', onJobFailureReasons: ['BackoffLimitExceeded'], targetReplicatedJobs: [] },
    ];
    const spec = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }], failurePolicy: { maxRestarts: 3, rules } }, { seconds: 4 });
    const deadline = { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
    const late = givenJobSet(jobFailed('a', 0, { seconds: 1 }), spec, jobFailed('b', 1, { seconds: 3, ...deadline })).whenSettled({ now: at(5) });
    const decisions = jobSetDecisions(late.log);
    const restart = decisions.find((d) => d.event.type === 'JobSetRestarted')?.seq;
    const failed = decisions.find((d) => d.event.type === 'JobSetFailed')?.seq;
    expect(decisions.find((d) => d.seq === failed! - 1)?.event.type).toBe('JobSetOutcomeCorrected');
    expect(explainJobSet(late.state, decisions).corrections).toEqual([
      { decidedBy: failed! - 1, corrects: restart, at: at(5), retracted: ['RestartingJobSet'], retractedMetAt: at(1), reason: 'FailJobSetFailurePolicyAction', metAt: at(3) },
    ]);
  });

  it('given a Job suspended on a view lacking a success met before, when the success arrives, then the summary says the suspension was taken back and why', () => {
    suspendedBeforeEarlierSuccess()
      .when()
      .then(({ state, log }) => {
        const explained = explainJob(state, log);
        expect(explained.corrections).toEqual([
          { decidedBy: expect.any(Number), at: jobAt(400), retracted: ['Suspended'], retractedMetAt: jobAt(400), reason: 'SuccessPolicy', metAt: jobAt(1) },
        ]);
        expect(explained.summary.endsWith(SUSPENSION_TAKEN_BACK)).toBe(true);
        expect(explained.summary).not.toContain('its criterion met');
      });
  });

  it('given no correction, then the explanation has no corrections field', () => {
    const spec = jobSetObserved({ replicatedJobs: [{ name: 'a' }] }, { seconds: 1 });
    const done = givenJobSet(spec, jobSucceeded('a', 0, { seconds: 5 })).whenSettled({ now: at(5) });
    expect(explainJobSet(done.state, jobSetDecisions(done.log))).not.toHaveProperty('corrections');
  });
});

describe('a corrected outcome in kubectl Events, the same for Jobs and JobSets', () => {
  it('given a Job\'s JobOutcomeCorrected, then one Warning OutcomeCorrected Event with the explanation\'s sentence precedes the new outcome\'s', () => {
    failJobFirst().when().then(({ state, log }) => {
      const decisions = log.flatMap((event, i) => (isDecisionType(event.type) ? [{ seq: i + 1, ...decisionEntry(event as Decision) }] : []));
      const builder = new EventBuilder({ kind: 'Job', namespace: 'default', name: 'job', uid: 'job-uid' }, { job: state });
      const events = stored(decisions.map((d) => ({ seq: d.seq, type: d.type, at: d.observedAt, body: d.body }))).flatMap((entry) => builder.eventsOf(entry));
      const reasons = events.map((e) => e.reason);
      expect(reasons.filter((r) => r === 'OutcomeCorrected')).toHaveLength(1);
      expect(reasons.indexOf('OutcomeCorrected')).toBeLessThan(reasons.lastIndexOf('Completed'));
      const corrected = events.find((e) => e.reason === 'OutcomeCorrected');
      expect(corrected).toMatchObject({ type: 'Warning', message: explainJob(state, log).summary.slice(explainJob(state, log).summary.indexOf('jobfold took back')) });
    });
  });

  it('given a suspension taken back, then its Warning OutcomeCorrected Event says so in the explanation\'s sentence, before the success\'s', () => {
    suspendedBeforeEarlierSuccess().when().then((outcome) => {
      const events = jobEvents(outcome);
      const reasons = events.map((e) => e.reason);
      expect(reasons.filter((r) => r === 'OutcomeCorrected')).toHaveLength(1);
      expect(reasons.indexOf('OutcomeCorrected')).toBeLessThan(reasons.lastIndexOf('Completed'));
      expect(events.find((e) => e.reason === 'OutcomeCorrected')).toMatchObject({ type: 'Warning', message: SUSPENSION_TAKEN_BACK.trim() });
    });
  });

  it('given a JobSet\'s JobSetOutcomeCorrected, then the same Event precedes the new outcome\'s', () => {
    const late = successArrivingLate();
    const decisions = jobSetDecisions(late.log);
    const builder = new EventBuilder({ kind: 'JobSet', namespace: 'default', name: 'js', uid: 'js-uid' }, { jobSet: late.state });
    const events = stored(decisions.map(({ seq, event }) => ({ seq, type: event.type, at: event.at, body: event }))).flatMap((entry) => builder.eventsOf(entry));
    expect(events.map((e) => e.reason)).toEqual(['FailedJobs', 'OutcomeCorrected', 'AllJobsCompleted']);
    const corrected = events.find((e) => e.reason === 'OutcomeCorrected');
    const summary = explainJobSet(late.state, decisions).summary;
    expect(corrected).toMatchObject({ type: 'Warning', message: summary.slice(summary.indexOf('jobfold took back')) });
  });
});
