import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, podObserved, tick } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';
import { boundedText, MAX_MESSAGE_BYTES, utf8Bytes } from '../../../shared/k8s/bounded-text.ts';
import { JobSchema } from '../../../shared/k8s/job.ts';
import { jobSummary } from '../../../shared/job/job-summary.ts';

// Issue 14 §1 and §3: no value the API server accepts makes a reconcile throw, and no string
// the cluster reports makes a decision, a condition or a command unboundedly large.

const INT32_MAX = 2147483647;
// int64 values past 2^53 are kept as 2^53 − 1 at ingest (shared/k8s/schema-helpers.ts), so the largest that reaches the fold:
const INT64_MAX = Number.MAX_SAFE_INTEGER;

const started = [tick(at(0)), podObserved(aPod({ name: 'a' }), at(1))];

describe('Given a spec value at the edge of what the API server accepts', () => {
  describe.each([
    ['activeDeadlineSeconds 1e13 (issue 14 §1)', { activeDeadlineSeconds: 1e13 }],
    ['activeDeadlineSeconds 2^53-1', { activeDeadlineSeconds: INT64_MAX }],
    ['activeDeadlineSeconds int32 max', { activeDeadlineSeconds: INT32_MAX }],
    ['activeDeadlineSeconds 1', { activeDeadlineSeconds: 1 }],
    ['backoffLimit int32 max', { backoffLimit: INT32_MAX }],
    ['completions and parallelism int32 max', { completions: INT32_MAX, parallelism: INT32_MAX }],
    ['parallelism int32 max without completions', { parallelism: INT32_MAX }],
    ['ttlSecondsAfterFinished int32 max', { ttlSecondsAfterFinished: INT32_MAX }],
    ['indexed, completions 100000 with backoffLimitPerIndex', { completionMode: 'Indexed' as const, completions: 100000, parallelism: 10000, backoffLimitPerIndex: INT32_MAX, maxFailedIndexes: 100000 }],
  ])('%s', (_name, spec) => {
    it('reconciles without throwing, asks for a representable wake-up and bounded pod creations', () => {
      const job = aJob(spec);
      const outcome = given(job, ...started).when({ now: at(2) });
      if (outcome.wakeAt !== undefined) expect(Number.isFinite(Date.parse(outcome.wakeAt))).toBe(true);
      const created = outcome.commands.filter((c) => c.type === 'CreatePod').length;
      expect(created).toBeLessThanOrEqual(500);
    });

    it('keeps reconciling later (a year on) without throwing', () => {
      const job = aJob(spec);
      expect(() => given(job, ...started, tick(at(3600))).when({ now: at(365 * 24 * 3600) })).not.toThrow();
    });
  });

  it('never passes a deadline past year 9999 and asks for no wake-up for it', () => {
    const outcome = given(aJob({ activeDeadlineSeconds: 1e13 }), ...started).when({ now: at(2) });
    expect(outcome.wakeAt).toBeUndefined();
    expect(outcome.state.status.conditions).toEqual([]);
  });
});

describe('Given strings the cluster reports of any length', () => {
  it('bounds the FailJob message naming a 150,000-character container (issue 14 §3) in the condition and every command', () => {
    const job = aJob({
      podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] },
    });
    const long = 'c'.repeat(150_000);
    const failed = aPod({ name: 'a', phase: 'Failed', exitCode: 0, containers: [{ name: 'side', exitCode: 42 }] });
    // Ingest refuses such a name (a DNS label has 63 characters); the fold bounds it all the same.
    (failed.status?.containerStatuses?.[1] as { name: string }).name = long;
    const outcome = given(job, tick(at(0)), podObserved(aPod({ name: 'b' }), at(1)), podObserved(failed, at(2))).when({ now: at(2) });
    const sizes = [...outcome.decisions, ...outcome.commands].map((d) => utf8Bytes(JSON.stringify(d)));
    expect(outcome.commands.some((c) => c.type === 'TerminatePod')).toBe(true);
    for (const size of sizes) expect(size).toBeLessThan(MAX_MESSAGE_BYTES + 4096);
    const target = outcome.state.status.conditions.find((c) => c.type === 'FailureTarget');
    expect(target?.message).toMatch(/^Container c+\.\.\. \(truncated\) for pod default\/a failed with exit code 42/);
  });

  it('bounds reported condition messages seeded from the Job status, and the summary showing them', () => {
    const job = JobSchema.parse({
      ...aJob({}),
      status: { conditions: [{ type: 'Suspended', status: 'False', reason: 'r'.repeat(5000), message: '💥'.repeat(100_000) }] },
    });
    const outcome = given(job, tick(at(1))).when({ now: at(1) });
    const [condition] = outcome.state.status.conditions;
    expect(utf8Bytes(condition?.message ?? '')).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(utf8Bytes(condition?.reason ?? '')).toBeLessThanOrEqual(1024);
    const summary = jobSummary(outcome.state, at(1));
    expect(utf8Bytes(JSON.stringify(summary))).toBeLessThan(MAX_MESSAGE_BYTES + 2048);
  });
});

describe('boundedText', () => {
  it('keeps a text that fits as it is', () => {
    expect(boundedText('x'.repeat(MAX_MESSAGE_BYTES))).toBe('x'.repeat(MAX_MESSAGE_BYTES));
  });

  it.each([
    ['ASCII', 'a'.repeat(40_000)],
    ['2-byte', 'é'.repeat(20_000)],
    ['surrogate pairs', '😀'.repeat(10_000)],
    ['mixed', 'a😀é'.repeat(5_000)],
  ])('cuts %s text to at most the limit, never inside a character, saying so', (_name, text) => {
    const cut = boundedText(text);
    expect(utf8Bytes(cut)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(cut.endsWith('... (truncated)')).toBe(true);
    expect(cut.isWellFormed()).toBe(true);
    expect(text.startsWith(cut.slice(0, -'... (truncated)'.length))).toBe(true);
  });
});
