import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { parseTime } from '../../../shared/k8s/time.ts';
import { applyMergePatch } from '../../../shared/whatif/patch.ts';
import { recordedOutcome } from '../../../shared/whatif/outcome.ts';
import { WhatIfPatchError } from '../../../shared/whatif/patch.ts';
import type { WhatIfReport } from '../../../shared/whatif/report.ts';
import { whatIfJob } from '../../../shared/whatif/what-if.ts';
import { historyArb, jobArb, type Batch } from '../job/arbitraries.ts';
import { live, livePatched, type Life } from './patch-replay.ts';
import { adviseOver } from '../../../shared/advise/walk.ts';
import { JobSchema } from '../../../shared/k8s/job.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import { anIndexedJob, aPod, at, podDeleted, podObserved, T0 } from '../../support/builders.ts';
import { portOver } from '../../unit/advise/families.ts';

// The advice's claims rest on one property of the what-if: for a recorded Job and a patch, the
// outcome it reports is what the patched spec does when the same cluster events are lived again
// under it — the service's loop, its wake-ups, and nothing past the divergence (the events after
// it belong to the recorded world). For every generated history and each patch the advice can
// propose: no divergence → the patched life ends as the record did; an exact outcome → the
// patched life, cut at the divergence, reaches that outcome, with that reason, at that time;
// unknown → it reaches none by then.

const HORIZON_MS = 3_600_000;

const FAIL_42 = { name: 'ExitCode42', action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } };
const FAIL_INDEX_3 = { name: 'ExitCode3', action: 'FailIndex', onExitCodes: { containerName: 'main', operator: 'In', values: [3] } };
const IGNORE = { name: 'Disruption', action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] };

/** What `mine` can propose, for any Job (a patch invalid for it is skipped, as the check counts it refused). */
const PATCHES: readonly { readonly spec: Record<string, unknown> }[] = [
  { spec: { backoffLimit: 0 } },
  { spec: { backoffLimit: 1 } },
  { spec: { podFailurePolicy: { rules: [FAIL_42] }, podReplacementPolicy: 'Failed' } },
  { spec: { podFailurePolicy: { rules: [IGNORE] }, podReplacementPolicy: 'Failed' } },
  { spec: { podFailurePolicy: { rules: [IGNORE, FAIL_42] }, podReplacementPolicy: 'Failed', backoffLimit: 0 } },
  { spec: { activeDeadlineSeconds: 30 } },
  { spec: { successPolicy: { rules: [{ succeededIndexes: '0' }] } } },
  { spec: { backoffLimitPerIndex: 0 } },
  { spec: { backoffLimitPerIndex: 1 } },
  { spec: { backoffLimitPerIndex: 1, podFailurePolicy: { rules: [FAIL_INDEX_3] }, podReplacementPolicy: 'Failed' } },
];

/** A counterexample the property found, as fast-check printed it (counterexamples/). */
function counterexample(file: string): { job: Job; batches: Batch[]; patch: { spec: Record<string, unknown> } } {
  return JSON.parse(readFileSync(new URL(`counterexamples/${file}`, import.meta.url), 'utf8'));
}

const caseArb = jobArb.chain((job) => fc.record({ job: fc.constant(job), batches: historyArb(job), patch: fc.constantFrom(...PATCHES) }));

const settled = (life: Life) => {
  const { outcome, reason, at } = recordedOutcome(life.log);
  return { outcome, reason, at: at === null ? null : parseTime(at) };
};

function report(record: Life, patch: unknown): WhatIfReport | undefined {
  try {
    return whatIfJob({ log: record.log, config: DEFAULT_FOLD_CONFIG, patch });
  } catch (error) {
    if (error instanceof WhatIfPatchError) return undefined;
    throw error;
  }
}

/** Checks the what-if of one history under one patch against its patched life; returns the report. */
function check(job: Job, batches: readonly Batch[], patch: { spec: Record<string, unknown> }): WhatIfReport | undefined {
  const end = parseTime(batches.at(-1)?.at ?? job.metadata.creationTimestamp ?? '') + HORIZON_MS;
  const record = live(job, batches, end);
  const r = report(record, patch);
  if (!r) return undefined;
  expect(r.replayMismatch).toBeNull();
  const patched = applyMergePatch(job, patch) as Job;
  const world = { patch, record, deriveCounts: job.spec.backoffLimitPerIndex === undefined && patched.spec.backoffLimitPerIndex !== undefined };
  if (!r.divergence) {
    // The record is evidence up to its last entry: the patched life is lived as far, no further.
    const last = record.log.at(-1) as Life['log'][number];
    const lastAt = parseTime('observedAt' in last ? last.observedAt : last.at);
    expect(settled(livePatched(job, batches, lastAt + 1, world))).toEqual({ ...settled(record), at: r.whatIf.at === null ? null : parseTime(r.whatIf.at) });
    return r;
  }
  const atEvent = r.divergence.atEvent;
  const cut = batches.filter((b) => (record.seqOf.get(b.events[0] as never) ?? Number.POSITIVE_INFINITY) <= atEvent);
  const life = livePatched(job, cut, parseTime(r.divergence.at) + 1, world);
  if (r.whatIf.exact) {
    expect(settled(life)).toEqual({ outcome: r.whatIf.outcome, reason: r.whatIf.reason, at: r.whatIf.at === null ? null : parseTime(r.whatIf.at) });
  } else {
    expect(settled(life).outcome).toBe('Running');
  }
  return r;
}

describe('a proposal\'s patch, lived again, gives the outcome the what-if reports (property)', () => {
  it('for every generated history and every patch the advice can propose', () => {
    fc.assert(fc.property(caseArb, ({ job, batches, patch }) => void check(job, batches, patch)), { numRuns: 500 });
  }, 120_000);

  it('as for a record that settled its outcome on a pod the patched world never had (seed 833020623, shrunk by hand)', () => {
    // Given an Indexed Job (backoffLimit 0, backoffLimitPerIndex 1) whose p2 of index 2 fails at
    // 0 s while its replacement p5 is pending, and whose p0 shows up at 30 s: the record fails it
    // at 0 s by terminating p5. When backoffLimitPerIndex is 0, index 2 fails with p2 and p5 is a
    // phantom: nothing diverges, and the outcome is the record's. The sync at 0 s reads p2 failed
    // and counts it (issue 20: counted at the sync, not at p2's observation), so the patched Job
    // fails there, at 0 s, with nothing to terminate (counted at the observation, the fold settled
    // it at 30 s, when p0 showed up).
    const job = anIndexedJob(3, { backoffLimit: 0, backoffLimitPerIndex: 1 });
    const batches = [
      { at: at(0), events: [podObserved(aPod({ name: 'p2', index: 2, phase: 'Failed', exitCode: 1, finishedAt: at(-1) }), at(0)), podObserved(aPod({ name: 'p5', index: 2, failureCount: 1, phase: 'Pending' }), at(0))] },
      { at: at(30), events: [podObserved(aPod({ name: 'p0', index: 0, phase: 'Pending' }), at(30))] },
    ];
    const r = check(job, batches, { spec: { backoffLimitPerIndex: 0 } });
    expect(r?.divergence).toBeNull();
    expect(r?.recorded).toMatchObject({ outcome: 'Failed', reason: 'BackoffLimitExceeded', at: at(0) });
    expect(r?.whatIf).toMatchObject({ exact: true, outcome: 'Failed', reason: 'BackoffLimitExceeded', at: at(0) });
  });

  it('as for a replacement the cluster never shows (seed -792084708, shrunk by hand)', () => {
    // Given a managed Indexed Job whose pod fails at 0 s (retried at 9 s) and whose replacement
    // p1 is seen only at 400 s, already deleted (so it fails its index, yet answers no creation);
    // when it is given backoffLimitPerIndex 1, then the patched controller, woken at 309 s when
    // its creation expires, asks again, and fails the Job once that expires too, at 609 s. (The
    // fold asked for that wake-up only at a later reconcile: the record had one, its finalizer
    // retry at 300 s, that the what-if reconciled the patched fold at too; the Job lived under
    // the patch had none, and failed at 400 s.)
    const job = anIndexedJob(1, { managedBy: JOBFOLD_CONTROLLER_NAME });
    const batches = [
      { at: at(0), events: [podDeleted('p1', at(0)), podObserved(aPod({ name: 'p0', index: 0, phase: 'Failed', exitCode: 1, finishedAt: at(-1) }), at(0))] },
      { at: at(400), events: [podObserved(aPod({ name: 'p1', index: 0, phase: 'Pending' }), at(400))] },
    ];
    const r = check(job, batches, { spec: { backoffLimitPerIndex: 1 } });
    expect(r?.whatIf).toMatchObject({ exact: true, outcome: 'Failed', reason: 'FailedIndexes', at: '2026-01-01T00:10:09.002Z' });
  });

  it('as for a deadline held back by a replacement the cluster never shows (seed 1067893670, as shrunk)', () => {
    // Given a managed Indexed Job (deadline 900 s) whose index-1 pod failed before it was seen
    // and whose replacement, asked for at 9 s, never shows: each expiry of that creation asks
    // again, and the deadline's outcome waits for the last one (upstream keeps an outcome only
    // once its expectations are met). The record's controller was also woken by its finalizer
    // retries; the patched one (backoffLimitPerIndex 1 keeps the finalizer until the replacement
    // exists) was not, so it reached the deadline with its creation expired, at 900 s, while the
    // what-if, reconciling it where the record woke, said 909 s. Now each creation has its own
    // wake-up, and both say 909 s.
    const { job, batches, patch } = counterexample('seed-1067893670.json');
    const r = check(job, batches, patch);
    expect(r?.divergence).toBeNull();
    expect(r?.whatIf).toMatchObject({ exact: true, outcome: 'Failed', reason: 'DeadlineExceeded', at: '2026-01-01T00:15:09.003Z' });
  });

  it('as for a success and a failed index that end the same pod (seed -1844499526, as found)', () => {
    // Given a managed Indexed Job (backoffLimitPerIndex 2, maxFailedIndexes 1, success policy:
    // index 0) whose index-1 replacement p3 shows up before p1's failure does, and at 13:50 index
    // 0's p2 succeeds as p1 fails: the record meets the success policy and terminates p3
    // (JobFinishing, SuccessPolicy). When backoffLimitPerIndex is 0, index 1 fails with p1, and a
    // failed index beside a succeeded one that make up the completions fails the Job before the
    // success policy is looked at (upstream's syncJob order): it terminates the same pod, for
    // FailedIndexes. The what-if compared terminations by cause and pods only, saw no divergence
    // and reported the record's success; a termination's reason is now compared too.
    const { job, batches, patch } = counterexample('seed-1844499526.json');
    const r = check(job, batches, patch);
    expect(r?.recorded).toMatchObject({ outcome: 'Succeeded', reason: 'SuccessPolicy', at: '2026-01-01T00:13:50.000Z' });
    expect(r?.divergence).toMatchObject({ by: 'reconcile', at: '2026-01-01T00:13:50.000Z' });
    expect(r?.whatIf).toMatchObject({ exact: true, outcome: 'Failed', reason: 'FailedIndexes', at: '2026-01-01T00:13:50.000Z' });
  });

  it('and the advice over a family reports exactly those outcomes, Job by Job', async () => {
    await fc.assert(fc.asyncProperty(familyArb, async ({ job, histories }) => {
      const runs = histories.map((batches, run) => {
        const named = runOf(job, run);
        const end = parseTime(batches.at(-1)?.at ?? T0) + HORIZON_MS;
        return { job: named, batches, record: live(named, batches, end) };
      });
      const advice = await adviseOver(portOver(runs.map((r) => ({ cluster: 'c1', log: r.record.log }))), {});
      for (const p of advice.families.flatMap((f) => f.proposals)) {
        const expected = { unchanged: 0, decidedEarlier: 0, harm: [] as string[] };
        // The advice reads finished Jobs only.
        for (const { job: run, batches, record } of runs.filter((x) => settled(x.record).outcome !== 'Running')) {
          const r = report(record, p.patch);
          if (!r || !r.divergence) {
            if (r) expected.unchanged += 1;
            continue;
          }
          const patched = applyMergePatch(run, p.patch) as Job;
          const world = { patch: p.patch, record, deriveCounts: run.spec.backoffLimitPerIndex === undefined && patched.spec.backoffLimitPerIndex !== undefined };
          const cut = batches.filter((b) => (record.seqOf.get(b.events[0] as never) ?? Number.POSITIVE_INFINITY) <= r.divergence!.atEvent);
          const lived = settled(livePatched(run, cut, parseTime(r.divergence.at) + 1, world));
          const recorded = settled(record);
          const name = run.metadata.name;
          if (!r.whatIf.exact) expected.harm.push(`${name} unknown`);
          else if (recorded.outcome === 'Succeeded' && lived.outcome === 'Failed') expected.harm.push(`${name} fails ${lived.reason} ${lived.at}`);
          else if ((lived.at ?? 0) > (recorded.at ?? 0)) expected.harm.push(`${name} later ${lived.reason} ${lived.at}`);
          // The figures are the fleet what-if's: a success that would fail sooner is harm, listed,
          // and also settled earlier (docs/advise.md, "The check, and the harm rule").
          if (r.whatIf.exact && (lived.at ?? 0) < (recorded.at ?? 0)) expected.decidedEarlier += 1;
        }
        const harm = p.check.harm.map((h) => (h.harm === 'unknown' ? `${h.job.name} unknown` : `${h.job.name} ${h.harm} ${reasonOf(h.whatIf)} ${atOf(h.whatIf)}`));
        expect({ unchanged: p.check.unchanged, decidedEarlier: p.check.decidedEarlier, harm }, p.kind).toEqual({ ...expected, harm: expected.harm.sort() });
      }
    }), { numRuns: 60 });
  }, 120_000);
});

/** A family: one spec, the histories of its runs. */
const familyArb = jobArb.chain((job) => fc.record({ job: fc.constant(job), histories: fc.array(historyArb(job), { minLength: 3, maxLength: 6 }) }));

/** Run `run` of CronJob `gen`: the Job named after it, owned by it. */
function runOf(job: Job, run: number): Job {
  const name = `gen-${28_000_000 + run}`;
  return JobSchema.parse({
    ...job,
    metadata: { ...job.metadata, name, uid: `${name}-uid`, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'gen', uid: 'gen-uid', controller: true }] },
  });
}

const reasonOf = (label: string): string => /\(([^)]*)\)/.exec(label)?.[1] ?? '';
const atOf = (label: string): number => parseTime(/ at (\S+)$/.exec(label)?.[1] ?? '');
