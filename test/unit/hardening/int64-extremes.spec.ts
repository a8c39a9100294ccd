import { describe, expect, it } from 'vitest';
import { parseInbound } from '../../../shared/contract/parse-inbound.ts';
import { INT64_KEPT_MAX } from '../../../shared/k8s/schema-helpers.ts';
import { validateCounts } from '../../../shared/job/validation/counts.ts';
import { aJob, aPod, at, podObserved, tick } from '../../support/builders.ts';
import { jobObservedEvent, podObservedEvent } from '../../support/inbound-events.ts';
import { given } from '../../support/job-spec.ts';

// Issue 14: integer fields at their extremes, as upstream takes them. int64 fields accept up to
// 2^63 − 1, which JSON.parse reads as 2^63; jobfold keeps such a value as 2^53 − 1, which
// behaves identically (a deadline past any time RFC 3339 can write). Past int64, and past int32
// for int32 fields, an event is refused as the API server's decoder refuses it, naming the field.

const INT64_MAX_AS_JSON_READS_IT = JSON.parse('9223372036854775807') as number;
const INT32_MAX = 2147483647;
const job = aJob({}, { uid: 'int64-job', name: 'int64' });

/** A Job Observed event whose Job has `change` applied, read as ingest reads it. */
function ingestJob(change: (job: Record<string, any>) => void) {
  const event = JSON.parse(JSON.stringify(jobObservedEvent(job, at(0)))) as { detail: { object: Record<string, any> } };
  change(event.detail.object);
  return parseInbound(event);
}

function ingestPod(change: (pod: Record<string, any>) => void) {
  const event = JSON.parse(JSON.stringify(podObservedEvent(aPod({ name: 'p' }), job, at(0)))) as { detail: { object: Record<string, any> } };
  change(event.detail.object);
  return parseInbound(event);
}

const kept = (result: ReturnType<typeof parseInbound>) => {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.errors)}`);
  return result.targets[0]?.entry.body as any;
};
const refusedAt = (result: ReturnType<typeof parseInbound>) => (result.ok ? [] : result.errors);

describe('Given an int64 field past 2^53, within int64 (accepted upstream)', () => {
  it.each([
    ['int64 max, 9223372036854775807', INT64_MAX_AS_JSON_READS_IT],
    ['2^53 + 2', 2 ** 53 + 2],
    ['1e18', 1e18],
  ])('activeDeadlineSeconds %s is stored as 2^53 − 1', (_name, value) => {
    const observation = kept(ingestJob((j) => void (j.spec.activeDeadlineSeconds = value)));
    expect(observation.job.spec.activeDeadlineSeconds).toBe(INT64_KEPT_MAX);
  });

  it('keeps metadata.generation and a pod\'s deletionGracePeriodSeconds the same way', () => {
    expect(kept(ingestJob((j) => void (j.metadata.generation = INT64_MAX_AS_JSON_READS_IT))).job.metadata.generation).toBe(INT64_KEPT_MAX);
    const pod = kept(ingestPod((p) => void (p.metadata.deletionGracePeriodSeconds = INT64_MAX_AS_JSON_READS_IT))).pod;
    expect(pod.metadata.deletionGracePeriodSeconds).toBe(INT64_KEPT_MAX);
  });

  it('keeps int64 min (refused by validation later, printed in full as upstream prints it)', () => {
    const spec = kept(ingestJob((j) => void (j.spec.activeDeadlineSeconds = -(2 ** 63)))).job.spec;
    expect(validateCounts(spec).map((e) => e.message)).toEqual([
      'spec.activeDeadlineSeconds: Invalid value: -9223372036854775808: must be greater than or equal to 0',
    ]);
  });
});

describe('Given a Job whose activeDeadlineSeconds is int64 max', () => {
  const spec = { activeDeadlineSeconds: INT64_KEPT_MAX };
  const started = [tick(at(0)), podObserved(aPod({ name: 'a' }), at(1))];

  it('behaves as upstream: the deadline never passes, and no wake-up is asked for it', () => {
    const outcome = given(aJob(spec), ...started).when({ now: at(2) });
    expect(outcome.wakeAt).toBeUndefined();
    expect(outcome.state.status.conditions).toEqual([]);
  });

  it('still never passes a century later', () => {
    const outcome = given(aJob(spec), ...started, tick(at(100 * 365 * 24 * 3600))).when({ now: at(100 * 365 * 24 * 3600) });
    expect(outcome.state.status.conditions.filter((c) => c.type === 'Failed')).toEqual([]);
  });
});

describe('Given a number no int64 holds, or an int32 field past int32', () => {
  it.each([
    ['activeDeadlineSeconds 1e19', (j: any) => void (j.spec.activeDeadlineSeconds = 1e19), 'detail.object.spec.activeDeadlineSeconds', /cannot unmarshal number 10000000000000000000 into Go value of type int64/],
    ['activeDeadlineSeconds 1.5', (j: any) => void (j.spec.activeDeadlineSeconds = 1.5), 'detail.object.spec.activeDeadlineSeconds', /cannot unmarshal number 1.5 into Go value of type int64/],
    ['generation -2^63 - 4096', (j: any) => void (j.metadata.generation = -(2 ** 63) - 4096), 'detail.object.metadata.generation', /type int64/],
    ['backoffLimit int32 max + 1', (j: any) => void (j.spec.backoffLimit = INT32_MAX + 1), 'detail.object.spec.backoffLimit', /2147483647/],
    ['completions 2^53', (j: any) => void (j.spec.completions = 2 ** 53), 'detail.object.spec.completions', /./],
    ['ttlSecondsAfterFinished int64 max', (j: any) => void (j.spec.ttlSecondsAfterFinished = INT64_MAX_AS_JSON_READS_IT), 'detail.object.spec.ttlSecondsAfterFinished', /./],
  ])('refuses %s, naming the field', (_name, change, path, message) => {
    const errors = refusedAt(ingestJob(change));
    expect(errors).toContainEqual({ path, message: expect.stringMatching(message) });
  });

  it('refuses a restartCount past int32, as the pod status field is an int32', () => {
    const errors = refusedAt(ingestPod((p) => void (p.status.containerStatuses = [{ name: 'c', restartCount: INT32_MAX + 1 }])));
    expect(errors.map((e) => e.path)).toContain('detail.object.status.containerStatuses[0].restartCount');
  });
});
