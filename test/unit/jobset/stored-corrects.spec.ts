import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EventBuilder } from '../../../functions/kube/objects/event-objects.ts';
import type { LogEntry } from '../../../shared/log/event-store.ts';
import {
  explainJobSet, fold, isJobSetDecisionType, jobSetEntryEvent, jobSetStatus,
  type JobSetDecisionEvent, type JobSetEvent, type JobSetStatus, type LoggedJobSetDecision,
} from '../../../shared/jobset/index.ts';
import type { OutcomeCorrection } from '../../../shared/read-model/explanation.ts';
import { at, jobFailed, jobSetObserved, jobSucceeded } from './support/builders.ts';
import { given, type Outcome } from './support/given.ts';

// Issue 20: one shape for a correction in the log. Given JobSet logs written by b2fabd8's code,
// whose corrections are `corrects` on the correcting decision (test/fixtures/jobset-corrects-b2fabd8),
// when today's code reads them as stored, then it folds and explains them as that code did; and
// the same histories decided today log a `JobSetOutcomeCorrected` entry before the replacing
// decision, and end in the same status with the same corrections.

interface StoredLog {
  readonly entries: readonly { seq: number; type: string; observedAt: string; body: unknown }[];
  readonly expected: { readonly status: JobSetStatus; readonly corrections: readonly OutcomeCorrection[]; readonly summary: string };
}

const stored: Record<string, StoredLog> = JSON.parse(
  readFileSync(new URL('../../fixtures/jobset-corrects-b2fabd8/logs.json', import.meta.url), 'utf8'),
);

const asEntries = (log: StoredLog): LogEntry[] =>
  log.entries.map(({ seq, type, observedAt, body }) => ({ eventId: `e${seq}`, type, observedAt, body, seq, recordedAt: observedAt }));

const decisionsOf = (events: readonly JobSetEvent[]): LoggedJobSetDecision[] =>
  events.flatMap((event, i) => (isJobSetDecisionType(event.type) ? [{ seq: i + 1, event: event as JobSetDecisionEvent }] : []));

const restartOnBackoff = { name: 'restartOnBackoff', action: 'RestartJobSet', onJobFailureReasons: ['BackoffLimitExceeded'], targetReplicatedJobs: [] };
const failOnDeadline = { name: 'failOnDeadline', action: 'FailJobSet', onJobFailureReasons: ['DeadlineExceeded'], targetReplicatedJobs: [] };
const deadline = { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };

/** The histories the fixtures were written from, decided by today's code. */
const TODAY: Record<string, () => Outcome> = {
  'completed-corrects-failed': () => {
    const spec = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b' }], successPolicy: { operator: 'Any' } }, { seconds: 10 });
    return given(jobFailed('a', 0, { seconds: 10 }), spec, jobSucceeded('b', 0, { seconds: 5 })).whenSettled({ now: at(10) });
  },
  'restarted-corrects-restarted': () => {
    const spec = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 3 }], failurePolicy: { maxRestarts: 3, rules: [restartOnBackoff] } }, { seconds: 4 });
    return given(jobFailed('b', 0, { seconds: 4 }), spec, jobFailed('b', 2, { seconds: 2 })).whenSettled({ now: at(5) });
  },
  'failed-corrects-restarted': () => {
    const spec = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }], failurePolicy: { maxRestarts: 3, rules: [failOnDeadline, restartOnBackoff] } }, { seconds: 4 });
    return given(jobFailed('a', 0, { seconds: 1 }), spec, jobFailed('b', 1, { seconds: 3, ...deadline })).whenSettled({ now: at(5) });
  },
};

describe.each(Object.keys(TODAY))('the JobSet log %s', (name) => {
  const log = stored[name]!;

  it('given it as b2fabd8 stored it (`corrects`), when read back, then its status, corrections and summary are what that code read', () => {
    const events = asEntries(log).map(jobSetEntryEvent);
    expect(events.some((e) => 'corrects' in e && e.corrects !== undefined)).toBe(true);
    const state = fold(events);
    expect(jobSetStatus(state)).toEqual(log.expected.status);
    const explained = explainJobSet(state, decisionsOf(events));
    expect(explained.corrections).toEqual(log.expected.corrections);
    expect(explained.summary).toBe(log.expected.summary);
  });

  it('given it as b2fabd8 stored it, when its kubectl Events are built, then the Warning OutcomeCorrected precedes the correcting decision\'s', () => {
    const events = asEntries(log);
    const state = fold(events.map(jobSetEntryEvent));
    const builder = new EventBuilder({ kind: 'JobSet', namespace: 'default', name: 'js', uid: 'js-uid' }, { jobSet: state });
    const reasons = events.flatMap((entry) => builder.eventsOf(entry)).map((e) => e.reason);
    expect(reasons.filter((r) => r === 'OutcomeCorrected')).toHaveLength(1);
    expect(reasons.at(-2)).toBe('OutcomeCorrected');
  });

  it('given the same history decided today, then a JobSetOutcomeCorrected entry precedes the replacing decision, nothing carries `corrects`, and it ends the same', () => {
    const today = TODAY[name]!();
    const corrected = today.log.findIndex((e) => e.type === 'JobSetOutcomeCorrected');
    expect(corrected).toBeGreaterThan(-1);
    expect(['JobSetRestarted', 'JobSetFailed', 'JobSetCompleted']).toContain(today.log[corrected + 1]?.type);
    expect(today.log.some((e) => 'corrects' in e && e.type !== 'JobSetOutcomeCorrected')).toBe(false);
    expect(today.status).toEqual(log.expected.status);
    const corrections = explainJobSet(today.state, decisionsOf(today.log)).corrections;
    expect(corrections).toEqual(log.expected.corrections.map((c) => ({ ...c, decidedBy: corrected + 1 })));
  });

  it('given the same history decided today, when explained over decisions that begin after the corrected one (a long log\'s window), then the correction still tells both instants', () => {
    const today = TODAY[name]!();
    const decisions = decisionsOf(today.log);
    const corrects = log.expected.corrections[0]!.corrects!;
    const corrections = explainJobSet(today.state, decisions.filter((d) => d.seq > corrects)).corrections;
    expect(corrections).toEqual([expect.objectContaining({ retractedMetAt: log.expected.corrections[0]!.retractedMetAt, metAt: log.expected.corrections[0]!.metAt })]);
    expect(corrections?.[0]?.retractedMetAt).toBeDefined();
  });
});
