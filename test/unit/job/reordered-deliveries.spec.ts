import { describe, expect, it } from 'vitest';
import type { PodObserved } from '../../../shared/job/events.ts';
import { aJob, anIndexedJob, aPod, at, jobObserved, podDeleted, podObserved, T0, tick, withSpec, type PodOptions } from '../../support/builders.ts';
import type { JobStatusView } from '../../../shared/job/status.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { conditionsOf, given } from '../../support/job-spec.ts';
import { explainJob } from '../../../shared/job/explain.ts';

// Issue 21: a pod's state is a join of its observations, ordered by the cluster (resourceVersion,
// KEP-5504), not by arrival; each pod's outcome counts once whether its Failed/Succeeded, its
// deletion or jobfold's own termination came first; and counting matches upstream's isPodFailed.

/** The pod as the cluster reported it at `rv`, observed at `when`. */
const pod = (name: string, rv: number, when: string, options: PodOptions = {}): PodObserved =>
  ({ ...podObserved(aPod({ name, resourceVersion: String(rv), ...options }), when), eventId: `${name}/${rv}` });
const MANAGED = 'jobfold.io/job-controller';

/** The Job with `spec` applied, as the cluster reported it at `rv`, observed at `when`. */
function jobAt(job: Job, spec: { suspend: boolean }, rv: string, when: string) {
  const observed = jobObserved(withSpec(job, spec), when);
  return { ...observed, job: { ...observed.job, metadata: { ...observed.job.metadata, resourceVersion: rv } } };
}

describe('Deleted pods count as upstream counts them', () => {
  it('a running pod that is deleted counts as failed (isPodFailed): with backoffLimit 0 the Job fails, no replacement', () => {
    given(aJob({ backoffLimit: 0 }), pod('a', 1, at(1)), podDeleted('a', at(2)))
      .when()
      .then(({ status, commands }) => {
        expect(conditionsOf(status)).toEqual(['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded']);
        expect(status).toMatchObject({ failed: 1, active: 0 });
        expect(commands.filter((c) => c.type === 'CreatePod')).toEqual([]);
      });
  });

  it('not when only Failed pods are replaced (podReplacementPolicy: Failed): the deleted pod is not a failure', () => {
    given(aJob({ backoffLimit: 0, podReplacementPolicy: 'Failed' }), pod('a', 1, at(1)), podDeleted('a', at(2)))
      .when()
      .thenStatus({ failed: 0, conditions: [] });
  });

  it('a deletion seen before the pod\'s Succeeded gives way to it: counted succeeded, not failed', () => {
    given(aJob({ completions: 2, parallelism: 2 }), pod('a', 1, at(1)), pod('b', 2, at(1)), podDeleted('a', at(3)), pod('a', 3, at(4), { phase: 'Succeeded' }))
      .when()
      .thenStatus({ succeeded: 1, failed: 0 });
  });

  it('pods deleted after the success criteria were met are not failures (upstream removed their finalizers then)', () => {
    const job = aJob({ completionMode: 'Indexed', completions: 2, parallelism: 2, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
    given(job, pod('a', 1, at(1), { index: 0 }), pod('b', 2, at(1), { index: 1 }), pod('a', 3, at(2), { index: 0, phase: 'Succeeded' }), podDeleted('b', at(3)))
      .when()
      .thenStatus({ succeeded: 1, failed: 0 });
  });

  // The deletion counted first asks for a replacement; the Job syncs again once that expectation expires (tick).
  it('so is one whose deletion arrives before the success it followed on the cluster\'s clock (success-policy__story-2-*)', () => {
    const job = aJob({ completionMode: 'Indexed', completions: 2, parallelism: 2, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
    given(job, pod('a', 1, at(1), { index: 0 }), pod('b', 2, at(1), { index: 1 }), podDeleted('b', at(3)), pod('a', 3, at(2), { index: 0, phase: 'Succeeded' }), tick(at(400)))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy']);
        expect(status).toMatchObject({ succeeded: 1, failed: 0 });
      });
  });

  it('but one deleted before the success criteria were met stays a failure, whichever arrives first', () => {
    const job = aJob({ completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimit: 6, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
    const inOrder = [pod('a', 1, at(1), { index: 0 }), pod('b', 2, at(1), { index: 1 }), podDeleted('b', at(2)), pod('a', 3, at(3), { index: 0, phase: 'Succeeded' })];
    given(job, ...inOrder, tick(at(400))).when().thenStatus({ succeeded: 1, failed: 1 });
    given(job, inOrder[0]!, inOrder[1]!, inOrder[3]!, inOrder[2]!, tick(at(400))).when().thenStatus({ succeeded: 1, failed: 1 });
  });
});

describe('A Job jobfold runs does not act on a deletion that arrived ahead of the pod\'s own events', () => {
  it('a Succeeded pod whose deletion arrives first: no pod is created for it, and it counts as succeeded', () => {
    const job = aJob({ managedBy: MANAGED });
    const outcome = given(job, pod('a', 1, at(1)), podDeleted('a', at(3))).when();
    expect(outcome.commands.filter((c) => c.type === 'CreatePod')).toEqual([]);
    expect(outcome.wakeAt).toBe(at(303.001));
    given(job, pod('a', 1, at(1)), podDeleted('a', at(3)), pod('a', 2, at(4), { phase: 'Succeeded' }))
      .when()
      .then(({ status, history, commands }) => {
        expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:CompletionsReached', 'Complete=True:CompletionsReached']);
        expect(status).toMatchObject({ succeeded: 1, failed: 0 });
        expect([...history.flatMap((h) => h.commands), ...commands].filter((c) => c.type === 'CreatePod')).toEqual([]);
      });
  });
});

describe('Late and reordered observations of one pod', () => {
  it('a Failed observation that still shows the finalizer, arriving after the one without it, counts the pod once', () => {
    const job = aJob({ completions: 2, parallelism: 2 });
    given(job, pod('a', 1, at(1)), pod('a', 3, at(3), { phase: 'Failed', finalizer: false }), pod('a', 2, at(2), { phase: 'Failed' }), pod('a', 2, at(2), { phase: 'Failed' }))
      .when()
      .thenStatus({ failed: 1 });
  });

  it('the resourceVersion orders a pod\'s observations, whatever the forwarder\'s stamp says (a restart with a clock behind)', () => {
    const job = aJob({ completions: 2, parallelism: 1 });
    const succeeded = { ...pod('a', 9, at(5), { phase: 'Succeeded' }), sequence: { epoch: 1_000, seq: 1 } };
    const running = { ...pod('a', 4, at(6)), sequence: { epoch: 2_000, seq: 3 } };
    given(job, pod('a', 1, at(1)), succeeded, running).when().then(({ state }) => expect(state.pods.get('a')?.phase).toBe('Succeeded'));
    const restartedBehind = { ...pod('a', 12, at(7), { phase: 'Succeeded' }), sequence: { epoch: 500, seq: 1 } };
    given(job, { ...pod('a', 4, at(1)), sequence: { epoch: 1_000, seq: 5 } }, restartedBehind).when().thenStatus({ succeeded: 1 });
  });
});

describe('A decision taken on a view the cluster had already left does not lose a pod\'s outcome', () => {
  it('the nightly Job of issue 21: two stale running pods at the Job\'s arrival, one terminated as excess, still counts when it fails', () => {
    // backoffLimit 6, one pod at a time, each fails with exit code 3: Failed at the 7th failure.
    const job = aJob({ backoffLimit: 6 });
    const running = (i: number) => pod(`p${i}`, 10 * i + 1, at(60 * i + 1));
    const failed = (i: number) => pod(`p${i}`, 10 * i + 2, at(60 * i + 60), { phase: 'Failed', exitCode: 3 });
    const delivered = [failed(0), running(1), failed(6), running(5), jobObserved(job, at(0)), running(0), failed(1), running(2), failed(2), running(3), failed(3), running(4), failed(4), failed(5), running(6)];
    given(null, ...delivered)
      .when()
      .then(({ status, history }) => {
        expect(history.flatMap((h) => h.decisions).some((d) => d.type === 'PodsTerminationRequested' && d.cause === 'ExcessPods')).toBe(true);
        expect(conditionsOf(status)).toEqual(['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded']);
        expect(status.failed).toBe(7);
      });
  });
});

// Counterexamples the corpus property (test/property/job/corpus-orders.property.spec.ts) found.
describe('Outcomes that arrive after a decision they happened before', () => {
  it('a pod that failed before the Job completed, arriving after it: the final status counts it (basics__non-parallel-job)', () => {
    // The cluster's order: p0 fails at 2 s, its replacement p1 succeeds at 294 s; delivered p1 first.
    const job = aJob({ completions: 1, parallelism: 1 });
    given(null, jobObserved(job, at(0)), pod('p1', 3, at(293), { phase: 'Pending' }), pod('p1', 4, at(294), { phase: 'Succeeded' }), pod('p0', 2, at(2), { phase: 'Failed' }))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:CompletionsReached', 'Complete=True:CompletionsReached']);
        expect(status).toMatchObject({ succeeded: 1, failed: 1 });
      });
  });

  it('a pod that failed after the Job completed does not count: the cluster had stopped counting', () => {
    const job = aJob({ completions: 1, parallelism: 2 });
    given(null, jobObserved(job, at(0)), pod('p1', 3, at(10), { phase: 'Succeeded' }), pod('p0', 4, at(20), { phase: 'Failed' }))
      .when()
      .thenStatus({ succeeded: 1, failed: 0 });
  });

  describe('a failure after the Job failed, when jobfold read a newer event before the Job (generated elastic history-53)', () => {
    // The cluster's order: `a` fails at 400 s (backoffLimit 0: the Job fails then); at 430 s
    // `gone` is evicted (its failure ignored by the policy) and `b` fails on its own.
    const job = aJob({
      completions: 2,
      parallelism: 1,
      backoffLimit: 0,
      podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] },
    });
    const aFailed = pod('a', 2, at(400), { phase: 'Failed' });
    const bFailed = pod('b', 3, at(430), { phase: 'Failed' });
    const goneEvicted = pod('gone', 4, at(430), { phase: 'Failed', exitCode: 42, deletionTimestamp: at(430), conditions: [{ type: 'DisruptionTarget' }] });

    it("in the cluster's order: b's failure came after the finish and is not counted", () => {
      given(null, jobObserved(job, at(0)), aFailed, bFailed, goneEvicted)
        .when()
        .thenStatus({ failed: 1, conditions: [expect.objectContaining({ type: 'FailureTarget' }), expect.objectContaining({ type: 'Failed' })] });
    });

    it("the eviction first: jobfold's clock read 430 s when it failed the Job, the cluster's finish was 400 s, and b is not counted", () => {
      given(null, aFailed, goneEvicted, jobObserved(job, at(0)), bFailed)
        .when()
        .thenStatus({ failed: 1, conditions: [expect.objectContaining({ type: 'FailureTarget' }), expect.objectContaining({ type: 'Failed' })] });
    });
  });

  describe('a failure that failed the Job, arriving after jobfold failed it on a later one (generated elastic history-27)', () => {
    // The cluster's order: `a` fails at 2 s (backoffLimit 0: the Job fails then); `b`, first
    // seen at 400 s, fails after the finish and is not counted. Delivered `b` first, jobfold
    // failed the Job on it; `a`'s failure, arriving last, shows the criterion met at 2 s.
    const job = aJob({ completions: 2, parallelism: 2, backoffLimit: 0 });
    const aFailed = pod('a', 2, at(2), { phase: 'Failed', finishedAt: at(2) });
    const bFailed = pod('b', 3, at(400), { phase: 'Failed', finishedAt: at(400), creationTimestamp: at(399) });
    const failed = ['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded'];

    it("in the cluster's order: b's failure came after the finish and is not counted", () => {
      given(null, jobObserved(job, at(0)), aFailed, bFailed)
        .when()
        .then(({ status }) => {
          expect(conditionsOf(status)).toEqual(failed);
          expect(status).toMatchObject({ failed: 1 });
        });
    });

    it('b first: once a arrives the finish moves back to 2 s (a logged CriterionMetEarlier), and b leaves the final status', () => {
      given(null, bFailed, jobObserved(job, at(0)), aFailed)
        .when()
        .then(({ status, decisions }) => {
          expect(conditionsOf(status)).toEqual(failed);
          expect(status).toMatchObject({ failed: 1 });
          expect(decisions).toContainEqual(expect.objectContaining({ type: 'CriterionMetEarlier', metAt: at(2), was: at(400) }));
        });
    });
  });

  describe('an outcome at the very instant the Job finished (basics__parallel-work-queue-job)', () => {
    // A work queue: p0 and p1 run, then both succeed at 10 s. On the cluster, the sync at 10 s
    // reads both successes and completes the Job with succeeded 2.
    const job = aJob({ parallelism: 2 });
    const running = [pod('p0', 1, at(5)), pod('p1', 2, at(5))];
    const p0Succeeded = pod('p0', 3, at(10), { phase: 'Succeeded' });
    const p1Succeeded = pod('p1', 4, at(10), { phase: 'Succeeded' });

    it("in the cluster's order: one sync reads both", () => {
      given(null, jobObserved(job, at(0)), ...running, p0Succeeded, p1Succeeded)
        .when()
        .thenStatus({ succeeded: 2, conditions: [expect.objectContaining({ type: 'SuccessCriteriaMet' }), expect.objectContaining({ type: 'Complete' })] });
    });

    it("p1's success arriving after jobfold completed the Job on p0's: the final status counts it", () => {
      // Delivered: p0's success, then the Job (p1 unseen, so nothing active: Complete at
      // 10 s), then the running observations, then p1's success of the same instant.
      given(null, p0Succeeded, jobObserved(job, at(0)), ...running, p1Succeeded)
        .when()
        .then(({ status }) => {
          expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:CompletionsReached', 'Complete=True:CompletionsReached']);
          expect(status).toMatchObject({ succeeded: 2, active: 0 });
        });
    });
  });

  describe('a pod running when the Job failed, arriving after jobfold failed it: the Job waits for it, as in the cluster\'s order', () => {
    // On the cluster, the sync at 65 s reads p0 running and p1 failed: FailureTarget, p0 deleted,
    // counted failed, then Failed once p0 is gone. Delivered p1 first, jobfold writes Failed at
    // once (nothing looks active); p0's observation from 30 s, arriving after, shows the
    // cluster's Job was still waiting for it: Failed is taken back (JobOutcomeCorrected, the
    // reason kept), p0 terminated as the finishing sync terminates it, and Failed follows once
    // its deletion arrives.
    const job = aJob({ backoffLimit: 0, parallelism: 1, completions: 1 });
    const running = pod('p0', 2, at(30));
    const failed = pod('p1', 3, at(65), { phase: 'Failed', exitCode: 1, finishedAt: at(64) });
    const deleted = podDeleted('p0', at(80));
    const ended = { failed: 2, terminating: 0, active: 0 };
    const conditions = ['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded'];

    for (const [order, events] of [["the cluster's order", [running, failed, deleted]], ['the failure first', [failed, running, deleted]]] as const) {
      it(order, () => {
        given(job, ...events, tick(at(100)))
          .when()
          .then(({ status }) => {
            expect(conditionsOf(status)).toEqual(conditions);
            expect(status).toMatchObject(ended);
          });
      });
    }

    for (const [order, events] of [["the cluster's order", [running, failed]], ['the failure first', [failed, running]]] as const) {
      it(`before the deletion arrives, ${order}: FailureTarget with p0 terminating and counted failed`, () => {
        given(job, ...events, tick(at(70)))
          .when()
          .then(({ status, state }) => {
            expect(conditionsOf(status)).toEqual(['FailureTarget=True:BackoffLimitExceeded']);
            expect(status).toMatchObject({ failed: 2, terminating: 1, active: 0 });
            expect([...state.pods.values()].filter((p) => p.terminationRequestedAt !== undefined).map((p) => p.name)).toEqual(['p0']);
          });
      });
    }

    it('the failure first: the log says why Failed was taken back', () => {
      const { log, state } = given(job, failed, running, tick(at(70))).when();
      const corrected = log.filter((e) => e.type === 'JobOutcomeCorrected');
      expect(corrected).toMatchObject([{ retracted: [{ type: 'Failed', reason: 'BackoffLimitExceeded' }], reason: 'BackoffLimitExceeded', evidence: { pods: [{ name: 'p0' }] } }]);
      expect(explainJob(state, log).summary).toContain('evidence that arrived later showed pod p0 still running then on the cluster\'s clock, and the controller writes Failed only once no pod is terminating.');
    });
  });

  describe('a pod running when the Job met its success policy, arriving after jobfold completed it: its later failure counts (success-policy__met-earlier-*)', () => {
    // On the cluster, the sync at 30 min reads p0 running (seen a little earlier) and p1
    // succeeded: SuccessCriteriaMet, p0 deleted, Complete held until p0 ends; p0's Failed at
    // 60 min is counted, then Complete. Delivered p1 first, jobfold completes the Job at once
    // (nothing looks active); p0's observation from before, arriving after, tells that the
    // cluster's Job waited for it.
    const job = anIndexedJob(2, { backoffLimit: 1, successPolicy: { rules: [{ succeededIndexes: '0,1', succeededCount: 1 }] } });
    const running = pod('p0', 1, at(1790), { index: 0 });
    const succeeded = pod('p1', 2, at(1800), { index: 1, phase: 'Succeeded' });
    const failed = pod('p0', 3, at(3600), { index: 0, phase: 'Failed', exitCode: 1, finishedAt: at(3599) });
    const conditions = ['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy'];
    const orders = [
      ["the cluster's order", [running, succeeded, failed]],
      ['the success, the running pod, then its failure', [succeeded, running, failed]],
      ['the success, the failure, then the running pod', [succeeded, failed, running]],
    ] as const;
    for (const [order, events] of orders) {
      it(order, () => {
        given(job, ...events, tick(at(3700)))
          .when()
          .then(({ status }) => {
            expect(conditionsOf(status)).toEqual(conditions);
            expect(status).toMatchObject({ succeeded: 1, failed: 1, completedIndexes: '1', active: 0 });
          });
      });
    }

    it('counted once: the running observation delivered twice, before and after the failure', () => {
      given(job, succeeded, { ...running, eventId: 'p0/1a' }, failed, { ...running, eventId: 'p0/1b' }, tick(at(3700)))
        .when()
        .thenStatus({ succeeded: 1, failed: 1 });
    });

    it('a pod first seen after the Job completed, failing later, does not count: the cluster had stopped counting', () => {
      given(job, succeeded, pod('p0', 3, at(1900), { index: 0 }), { ...failed, pod: { ...failed.pod, metadata: { ...failed.pod.metadata, resourceVersion: '4' } } }, tick(at(3700)))
        .when()
        .thenStatus({ succeeded: 1, failed: 0 });
    });
  });

  it('a deleted pod seen with the finalizer, arriving after its newer state and before the Job, counts once the Job arrives', () => {
    // podReplacementPolicy TerminatingOrFailed: the deleted pod counted as failed and lost the
    // finalizer; its Failed (without it) is delivered first, the deletion next, the Job last.
    const job = aJob({ completions: 2, parallelism: 2, podReplacementPolicy: 'TerminatingOrFailed' });
    const deleting = { deletionTimestamp: at(2) };
    given(null, pod('p0', 8, at(294), { phase: 'Failed', finalizer: false, ...deleting }), pod('p0', 4, at(2), { phase: 'Pending', ...deleting }), jobObserved(job, at(0)))
      .when()
      .thenStatus({ failed: 1 });
  });
});

describe('A suspended Job\'s pods deleted before jobfold asked for it', () => {
  it('are not failures: the controller deletes them the way manageJob does (suspend__suspend-running-job, reordered)', () => {
    // The suspended Job arrives first; one pod is seen after jobfold's suspension reconcile, and
    // both deletions arrive before jobfold asked to delete that pod.
    const job = aJob({ completions: 4, parallelism: 2 });
    given(null, jobObserved(withSpec(job, { suspend: true }), at(2)), pod('a', 1, at(1)), pod('b', 2, at(1.5)), podDeleted('a', at(3)), podDeleted('b', at(3)))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(['Suspended=True:JobSuspended']);
        expect(status).toMatchObject({ failed: 0, active: 0 });
      });
  });
});

describe('Pods deleted as excess after parallelism was lowered, before jobfold saw the update', () => {
  // basics__parallelism-down-and-up: parallelism 5 -> 2 at :06, the controller deletes three pods
  // as excess at :07 (manageJob's deleteJobPods removes the tracking finalizer first: never
  // counted), the work queue then succeeds. Delivered with the successes before the update,
  // jobfold never decides the excess itself (work queue: nothing is excess after a success).
  const job = aJob({ parallelism: 5, backoffLimit: 2 });
  const started = ['a', 'b', 'c', 'd', 'e'].map((name, i) => pod(name, i + 1, at(1 + i), { phase: 'Pending', creationTimestamp: at(1 + i) }));
  const lowered = { ...jobObserved(withSpec(job, { parallelism: 2 }), at(6)), job: { ...withSpec(job, { parallelism: 2 }), metadata: { ...job.metadata, resourceVersion: '6' } } };
  const deletions = ['c', 'd', 'e'].map((name) => podDeleted(name, at(7)));
  const successes = ['a', 'b'].map((name, i) => pod(name, 10 + i, at(10), { phase: 'Succeeded', creationTimestamp: at(1 + i) }));

  it("in the cluster's order: the excess is jobfold's to decide, nothing counts failed", () => {
    given(job, ...started, lowered, ...deletions, ...successes, tick(at(11)))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:CompletionsReached', 'Complete=True:CompletionsReached']);
        expect(status).toMatchObject({ succeeded: 2, failed: 0 });
      });
  });

  it('the successes before the update: the deletions at :07 were excess on the cluster\'s clock, not failures', () => {
    given(job, ...started, ...successes, lowered, ...deletions, tick(at(11)))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:CompletionsReached', 'Complete=True:CompletionsReached']);
        expect(status).toMatchObject({ succeeded: 2, failed: 0 });
      });
  });

  it('the deletions before the update: counted failed until the update shows them excess, then taken back', () => {
    // With backoffLimit 2 the three failures would fail the Job before the update arrives (a
    // condition only moves forward); with a higher limit the count is taken back.
    const patient = withSpec(job, { backoffLimit: 6 });
    const update = { ...lowered, job: { ...withSpec(patient, { parallelism: 2 }), metadata: lowered.job.metadata } };
    // The counted failures asked for replacements: the Job syncs again once that expectation expires (tick).
    given(patient, ...started, ...deletions, update, ...successes, tick(at(400)))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:CompletionsReached', 'Complete=True:CompletionsReached']);
        expect(status).toMatchObject({ succeeded: 2, failed: 0 });
      });
  });

  it('no more pods than the update made excess: a fourth deleted at :07 is a failure', () => {
    given(job, ...started, successes[0]!, lowered, ...deletions, podDeleted('b', at(7)), tick(at(11)))
      .when()
      .thenStatus({ failed: 1 });
  });

  it('a pod deleted before the update is a failure, whichever arrives first', () => {
    given(job, ...started, ...successes, lowered, podDeleted('e', at(5)), tick(at(11)))
      .when()
      .thenStatus({ failed: 1 });
  });
});

describe('Pods seen active beside their replacements are no excess', () => {
  // basics__pods-recreated-with-exponential-backoff: parallelism 1; a fails at :02, b at :14, c
  // is created at :35. c's observation arrives before a's older ones: the fold sees two pods
  // active. The controller created c while nothing else was active (parallelism 1), so a had
  // ended by then: its own events tell how, nothing is terminated as excess.
  const job = aJob({ parallelism: 1, backoffLimit: 6 });
  const created = (name: string, rv: number, seconds: number) => pod(name, rv, at(seconds), { phase: 'Pending', creationTimestamp: at(seconds) });
  const failedA = pod('a', 2, at(2), { phase: 'Failed', creationTimestamp: at(1) });

  it('the replacement first: no TerminatePod, and the status the cluster had', () => {
    given(job, created('c', 6, 35), created('a', 1, 1), failedA, tick(at(36)))
      .when()
      .then(({ status, history, commands }) => {
        expect([...history.flatMap((h) => h.commands), ...commands].filter((c) => c.type === 'TerminatePod')).toEqual([]);
        expect(status).toMatchObject({ active: 1, terminating: 0, failed: 1 });
      });
  });

  it('Indexed: a pod of an index created before the index\'s newest had ended (pod-replacement-policy__failed-indexed)', () => {
    const indexed = aJob({ completionMode: 'Indexed', completions: 1, parallelism: 1, backoffLimit: 6 });
    const ofIndex = (name: string, rv: number, seconds: number, phase: 'Pending' | 'Failed', created = seconds) =>
      pod(name, rv, at(seconds), { phase, index: 0, creationTimestamp: at(created) });
    given(indexed, ofIndex('c', 6, 35, 'Pending'), ofIndex('a', 1, 1, 'Pending'), ofIndex('a', 2, 2, 'Failed', 1), tick(at(36)))
      .when()
      .then(({ status, history, commands }) => {
        expect([...history.flatMap((h) => h.commands), ...commands].filter((c) => c.type === 'TerminatePod')).toEqual([]);
        expect(status).toMatchObject({ active: 1, terminating: 0, failed: 1 });
      });
  });

  it('pods created in one second by one sync, beyond parallelism, are still excess (adopted, upstream deletes them)', () => {
    const wide = aJob({ parallelism: 1 });
    given(wide, created('a', 1, 1), created('b', 2, 1), tick(at(2)))
      .when()
      .thenStatus({ active: 1, terminating: 1 });
  });
});

describe('A Job created suspended whose pods succeed an hour later, the successes arriving first', () => {
  // completions__suspended-job-completes-when-all-succeeded (corpus orders property): the
  // controller synced the Job when it was created suspended and wrote Suspended=True; the sync
  // that found the completions reached wrote no Suspended condition. Read in one sync when the
  // Job arrives last, the successes gave the outcome and the Suspended condition was lost.
  const job = aJob({ completions: 2, parallelism: 2, suspend: true });
  const created = jobAt(job, { suspend: true }, '1', at(0));
  const succeeded = ['a', 'b'].map((name, i) => pod(name, 2 + i, at(3600), { phase: 'Succeeded', finishedAt: at(3599) }));
  const conditions = ['Suspended=True:JobSuspended', 'SuccessCriteriaMet=True:CompletionsReached', 'Complete=True:CompletionsReached'];

  it("in the cluster's order", () => {
    given(null, created, ...succeeded, tick(at(3601)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(conditions));
  });

  it('the successes first: the suspension the controller wrote before them is written before the outcome', () => {
    given(null, ...succeeded, created, tick(at(3601)))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(conditions);
        expect(status).toMatchObject({ succeeded: 2 });
      });
  });

  it('not when the pods that reached the completions had finished before the suspension was observed: the controller may have seen them', () => {
    const early = ['a', 'b'].map((name, i) => pod(name, 2 + i, at(3600), { phase: 'Succeeded', finishedAt: at(0) }));
    given(null, ...early, jobAt(job, { suspend: true }, '1', at(1)), tick(at(3601)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(conditions.slice(1)));
  });

  it('but one pod finished before it is not enough: the completions needed the other, which finished after (getFinishedTime)', () => {
    const early = [pod('a', 2, at(3600), { phase: 'Succeeded', finishedAt: at(0) }), succeeded[1] as PodObserved];
    given(null, ...early, jobAt(job, { suspend: true }, '1', at(1)), tick(at(3601)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(conditions));
  });
});

describe('A Job whose success policy was met before it was suspended, the success arriving after the suspension', () => {
  // generated-orders property, cluster history 21: index 0 succeeded at 0:00 (the success policy
  // met), the Job was suspended at 6:40 and resumed at 8:20 (the creations it asked for
  // expired by then, so the suspension was enacted). Upstream's syncJob suspends only a Job
  // no finish criterion holds: the cluster wrote SuccessCriteriaMet and Complete, never Suspended.
  // Read without the success, the suspension (and its JobResumed flip) was enacted and stayed.
  const job = anIndexedJob(2, { successPolicy: { rules: [{ succeededIndexes: '0' }] } });
  const created = jobAt(job, { suspend: false }, '1', at(0));
  const success = pod('a', 2, at(1), { index: 0, phase: 'Succeeded', finishedAt: at(0) });
  const suspended = jobAt(job, { suspend: true }, '3', at(400));
  const resumed = jobAt(job, { suspend: false }, '4', at(500));
  const conditions = ['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy'];

  it("in the cluster's order: no Suspended condition", () => {
    given(null, created, success, suspended, resumed, tick(at(900)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(conditions));
  });

  it('the success after the suspension: the Suspended=True written without it is taken back', () => {
    given(null, created, suspended, success, tick(at(900)))
      .when()
      .then(({ status, history }) => {
        expect(conditionsOf(status)).toEqual(conditions);
        const corrections = history.flatMap((h) => h.decisions).flatMap((d) => (d.type === 'JobOutcomeCorrected' ? [d.retracted.map((c) => c.type)] : []));
        expect(corrections).toEqual([['Suspended']]);
      });
  });

  it('the success after the resumption: the JobResumed flip is taken back too', () => {
    given(null, created, suspended, resumed, success, tick(at(900)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(conditions));
  });

  it('not when the success came after the suspension on the cluster\'s clock: the controller wrote Suspended=True first', () => {
    const later = pod('a', 5, at(450), { index: 0, phase: 'Succeeded', finishedAt: at(440) });
    given(null, created, suspended, later, tick(at(900)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(['Suspended=True:JobSuspended', ...conditions]));
  });
});

describe('A Job jobfold runs, suspended on a view lacking a success met before the suspension', () => {
  // generated-orders property, cluster history 7 (suspension-order.ts): the success met at 0:00
  // arrives after the suspension of 6:40, which jobfold enacted and wrote to the Job. The cluster's
  // controller (jobfold, in order) finished the Job first and never suspended it. The condition is
  // jobfold's to write: it is taken back and the Job's status patched without it (the API server
  // refuses to drop Complete, Failed, FailureTarget or SuccessCriteriaMet, not Suspended).
  const job = anIndexedJob(2, { managedBy: MANAGED, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
  const created = jobAt(job, { suspend: false }, '1', at(0));
  const success = pod('a', 2, at(1), { index: 0, phase: 'Succeeded', finishedAt: at(0) });
  const suspended = jobAt(job, { suspend: true }, '3', at(400));
  const conditions = ['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy'];
  const patched = (commands: readonly { type: string }[]) =>
    commands.flatMap((c) => (c.type === 'UpdateJobStatus' ? [conditionsOf((c as unknown as { status: JobStatusView }).status)] : []));

  it("in the cluster's order: no Suspended condition", () => {
    given(null, created, success, suspended, tick(at(900)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(conditions));
  });

  it('the success after the suspension: Suspended=True is taken back, and the status written without it', () => {
    given(null, created, suspended, success, tick(at(900)))
      .when()
      .then(({ status, history, commands }) => {
        expect(conditionsOf(status)).toEqual(conditions);
        const corrections = history.flatMap((h) => h.decisions).flatMap((d) => (d.type === 'JobOutcomeCorrected' ? [d.retracted.map((c) => c.type)] : []));
        expect(corrections).toEqual([['Suspended']]);
        expect(patched([...history.flatMap((h) => h.commands), ...commands]).at(-1)).toEqual(conditions);
      });
  });

  it('the success after the Job finished on a later one: taken back all the same, the outcome kept', () => {
    // History 7 itself: the Job completed on a success met after the suspension, then the earlier one arrived.
    const later = pod('b', 4, at(450), { index: 1, phase: 'Succeeded', finishedAt: at(440) });
    const both = anIndexedJob(2, { managedBy: MANAGED, successPolicy: { rules: [{ succeededCount: 1 }] } });
    const versioned = (spec: { suspend: boolean }, rv: string, when: string) => jobAt(both, spec, rv, when);
    given(null, versioned({ suspend: false }, '1', at(0)), versioned({ suspend: true }, '3', at(400)), later, success, tick(at(900)))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy']);
        expect(status.completionTime).toBe(at(450));
      });
  });
});

describe('A Job jobfold runs whose outcome it decided before the suspension that came first arrived', () => {
  // generated-orders property, cluster histories 6, 49, 51: the cluster's order has Suspended=True
  // written at the suspension, then the outcome; jobfold read the success (or failure) first and
  // a Job observation newer than the suspension, so it wrote no Suspended. The older suspended
  // observation tells it: Suspended is written in the place it had, before the outcome's
  // conditions, and the Job's status patched; no pod is terminated for it.
  const job = anIndexedJob(2, { managedBy: MANAGED, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
  const created = jobAt(job, { suspend: false }, '1', at(0));
  const suspended = jobAt(job, { suspend: true }, '2', at(400));
  const success = pod('a', 3, at(450), { index: 0, phase: 'Succeeded', finishedAt: at(440) });
  const again = jobAt(job, { suspend: true }, '4', at(460));
  const resumed = jobAt(job, { suspend: false }, '4', at(420));
  const outcome = ['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy'];

  it("in the cluster's order: Suspended=True, then the outcome", () => {
    given(null, created, suspended, success, again, tick(at(900)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(['Suspended=True:JobSuspended', ...outcome]));
  });

  it('the success and a newer suspended observation first: Suspended=True is written before the outcome when the older one arrives', () => {
    given(null, success, again, suspended, created, tick(at(900)))
      .when()
      .then(({ status, history, commands }) => {
        expect(conditionsOf(status)).toEqual(['Suspended=True:JobSuspended', ...outcome]);
        const all = [...history.flatMap((h) => h.commands), ...commands];
        expect(all.filter((c) => c.type === 'TerminatePod')).toEqual([]);
        const last = all.filter((c) => c.type === 'UpdateJobStatus').at(-1) as unknown as { status: JobStatusView };
        expect(conditionsOf(last.status)).toEqual(['Suspended=True:JobSuspended', ...outcome]);
      });
  });

  it('resumed before the success: the flip to False, before the outcome, as the controller wrote it', () => {
    given(null, created, suspended, resumed, success, tick(at(900)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(['Suspended=False:JobResumed', ...outcome]));
    given(null, success, resumed, suspended, created, tick(at(900)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(['Suspended=False:JobResumed', ...outcome]));
  });

  it('not when the pod may have finished before the suspension (getFinishedTime): the controller may have read the success first', () => {
    const early = pod('a', 3, at(450), { index: 0, phase: 'Succeeded', finishedAt: at(300) });
    given(null, early, again, suspended, created, tick(at(900)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(outcome));
  });
});

describe('A Job created suspended and resumed, its resumption arriving first', () => {
  // suspend__resume-suspended-job: the controller synced the Job created suspended (Suspended=True)
  // and flipped the condition when it was resumed. The suspended observation, older by its
  // resourceVersion, arrives after the resumed one: it changes no spec, but tells the flip.
  const job = aJob({ completions: 4, parallelism: 2 });
  const versioned = (spec: { suspend: boolean }, rv: string, when: string) => jobAt(job, spec, rv, when);
  const suspended = versioned({ suspend: true }, '1', at(0));
  const resumed = versioned({ suspend: false }, '2', at(1));
  const pods = ['a', 'b'].map((name, i) => pod(name, 3 + i, at(2), { phase: 'Pending', creationTimestamp: at(2) }));

  it('in the cluster\'s order: Suspended=True, then flipped to False', () => {
    given(null, suspended, resumed, ...pods, tick(at(3)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(['Suspended=False:JobResumed']));
  });

  it('the resumption first: the same condition once the suspended observation arrives, and no second start', () => {
    given(null, resumed, ...pods, suspended, tick(at(3)))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(['Suspended=False:JobResumed']);
        expect(status.startTime).toBe(at(1));
      });
  });

  it('the resumption first and no pod seen yet: the flip is not held back by the creations the resumed sync asked for', () => {
    // generated-orders property, cluster history 22: the controller flipped the condition in the
    // resumption's own sync, before it created a pod; jobfold's expectation of those pods (set
    // when it read the resumption) says nothing about that sync.
    given(null, resumed, suspended, tick(at(3)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(['Suspended=False:JobResumed']));
  });

  it('the pods before the resumption: created after the suspended spec was observed, they are not the suspension\'s to delete', () => {
    given(null, suspended, ...pods, resumed, tick(at(3)))
      .when()
      .then(({ status, history }) => {
        expect(history.flatMap((h) => h.commands).filter((c) => c.type === 'TerminatePod')).toEqual([]);
        expect(status).toMatchObject({ active: 2, terminating: 0 });
      });
  });

  describe('suspended and resumed within one instant: one sync read only the resumed Job, so no condition', () => {
    // test:explore, stamped-arrival property, seed -97036403: a late copy of the suspended
    // observation (the same event again) wrote Suspended=False/JobResumed.
    const sameInstant = versioned({ suspend: true }, '1', at(1));

    it("in the cluster's order", () => {
      given(null, sameInstant, resumed, ...pods, tick(at(3)))
        .when()
        .then(({ status }) => expect(conditionsOf(status)).toEqual([]));
    });

    it('the suspended observation arriving after the resumed one, or again', () => {
      for (const delivered of [[resumed, ...pods, sameInstant], [sameInstant, resumed, ...pods, sameInstant]]) {
        given(null, ...delivered, tick(at(3)))
          .when()
          .then(({ status }) => expect(conditionsOf(status)).toEqual([]));
      }
    });
  });

  it('a suspension jobfold held and synced already: a late copy of it adds nothing, whatever that sync wrote', () => {
    // test:explore, stamped-arrival property, seed -1378554431: the Job runs and asks for a pod at
    // 0 s; suspended at 30 s while that creation is still expected, so the sync writes no
    // Suspended condition (upstream's syncJob writes it only with its expectations satisfied);
    // resumed at 35 s with the pod seen. A late copy of the suspended observation wrote JobResumed.
    const running = aJob({ completions: 1, parallelism: 1 });
    const observedAs = (spec: { suspend: boolean }, rv: string, when: string) => jobAt(running, spec, rv, when);
    const suspendedAt30 = observedAs({ suspend: true }, '1', at(30));
    const history = [tick(at(0)), suspendedAt30, observedAs({ suspend: false }, '2', at(35)), pod('p1', 3, at(35), { phase: 'Pending' })];
    given(running, ...history, tick(at(40)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual([]));
    given(running, ...history, suspendedAt30, tick(at(40)))
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual([]));
  });

  it('a pod created before the suspended spec was observed is deleted by the suspension, as upstream does', () => {
    const early = pod('c', 1, at(0), { phase: 'Pending', creationTimestamp: at(-1) });
    given(null, suspended, early, tick(at(0.5)))
      .when()
      .then(({ status }) => expect(status).toMatchObject({ active: 0, terminating: 1 }));
  });
});

describe('A pod whose finalizer was removed before it finished counts as the controller counted it then', () => {
  // basics__failed-despite-later-successes, shrunk: backoffLimit 0, a fails at 2 s; the failing
  // sync deletes b and counts it failed (every tracked pod not succeeded), removing its
  // finalizer; b then succeeds without it. Upstream: failed 2, succeeded 0.
  const job = aJob({ completions: 2, parallelism: 2, backoffLimit: 0 });
  const deleting = { deletionTimestamp: at(3) };
  const aRunning = pod('a', 1, at(1));
  const bRunning = pod('b', 2, at(1));
  const aFailed = pod('a', 3, at(2), { phase: 'Failed' });
  const bStripped = pod('b', 4, at(3), { finalizer: false, ...deleting });
  const bSucceeded = pod('b', 5, at(3), { phase: 'Succeeded', finalizer: false, ...deleting });
  const failedTwice = ({ status }: { status: JobStatusView }) => {
    expect(conditionsOf(status)).toEqual(['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded']);
    expect(status).toMatchObject({ failed: 2, succeeded: 0 });
  };

  it('in the cluster\'s order', () => {
    given(job, aRunning, bRunning, aFailed, bStripped, bSucceeded, tick(at(400))).when().then(failedTwice);
  });

  it('its later success, without the finalizer, arriving before what shows it tracked (the counterexample: succeeded 0, failed 1)', () => {
    given(job, bSucceeded, aRunning, aFailed, bStripped, bRunning, tick(at(400))).when().then(failedTwice);
  });

  it('stripped before the failure that explains it arrives: counted failed as a deleted pod (isPodFailed)', () => {
    given(job, aRunning, bRunning, bStripped, bSucceeded, aFailed, tick(at(400))).when().then(failedTwice);
  });

  it('its success arriving first lets jobfold finish the Job before what shows it stripped unfinished: the final status counts it', () => {
    // Upstream counted it before the Job finished (a finished Job's pods lose the finalizer uncounted).
    given(job, aRunning, aFailed, bSucceeded, bRunning, bStripped, tick(at(400))).when().then(failedTwice);
  });

  it('stripped and deleted after the success criteria were met: not a failure, whichever arrives first', () => {
    const done = aJob({ completions: 1, parallelism: 2 });
    const aSucceeded = pod('a', 3, at(2), { phase: 'Succeeded' });
    const succeededOnce = { succeeded: 1, failed: 0 };
    given(done, aRunning, bRunning, aSucceeded, bStripped, bSucceeded, tick(at(400))).when().thenStatus(succeededOnce);
    given(done, aRunning, bRunning, bStripped, bSucceeded, aSucceeded, tick(at(400))).when().thenStatus(succeededOnce);
  });

  it('with podReplacementPolicy Failed, counted failed only by the failing sync: once the Job fails, whichever arrives first', () => {
    const failedOnly = aJob({ completions: 2, parallelism: 2, backoffLimit: 0, podReplacementPolicy: 'Failed' });
    given(failedOnly, aRunning, bRunning, aFailed, bStripped, bSucceeded, tick(at(400))).when().thenStatus({ failed: 2, succeeded: 0 });
    given(failedOnly, aRunning, bRunning, bStripped, bSucceeded, aFailed, tick(at(400))).when().thenStatus({ failed: 2, succeeded: 0 });
  });
});

describe('Pods deleted while the cluster\'s Job was failing count as failed, whatever arrived first', () => {
  // Upstream's finishing sync counts every tracked pod that has not ended as failed, also where
  // only Failed pods count otherwise (a podFailurePolicy). Cluster's order: a and b running, a
  // fails with exit code 5 (FailJob) at 2 s, b is deleted at 3 s and gone at 4 s: failed 2.
  // Corpus: pod-failure-policy__failed-pod-deleted-during-controller-restart.
  const job = aJob({ completions: 2, parallelism: 2, podFailurePolicy: { rules: [{ name: 'Fatal', action: 'FailJob', onExitCodes: { operator: 'In', values: [5] } }] } });
  const aRuns = pod('a', 1, at(1));
  const bRuns = pod('b', 2, at(1));
  const aFails = pod('a', 3, at(2), { phase: 'Failed', exitCode: 5 });
  const bDeleting = pod('b', 4, at(3), { deletionTimestamp: at(3) });
  const bGone = podDeleted('b', at(4));
  const failedByPolicy = ['FailureTarget=True:PodFailurePolicy_Fatal', 'Failed=True:PodFailurePolicy_Fatal'];
  // A view without b asks for its replacement; the Job syncs again once that expectation expires.
  const later = tick(at(400));

  it.each([
    ['in the cluster\'s order: b, deleted after the failure, counts as failed', [aRuns, bRuns, aFails, bDeleting, bGone]],
    ['b\'s deletion arriving before a\'s failure: b was gone in the view that failed the Job, and still counts', [aRuns, bRuns, bGone, aFails, later]],
    ['b known by its deletion only until the Job failed, then its observation with the tracking finalizer arrives: counted', [aRuns, bGone, aFails, bRuns, later]],
  ])('%s', (_, events) => {
    given(job, ...events)
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(failedByPolicy);
        expect(status).toMatchObject({ failed: 2, terminating: 0, active: 0 });
      });
  });

  it('not a pod deleted before the failure: only Failed pods count under the policy', () => {
    given(job, aRuns, bRuns, podDeleted('b', at(1.5)), aFails, later)
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(failedByPolicy);
        expect(status).toMatchObject({ failed: 1 });
      });
  });

  it('nor a pod known by its deletion alone: nothing says the cluster\'s Job tracked it', () => {
    given(job, aRuns, bGone, aFails, later)
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(failedByPolicy);
        expect(status).toMatchObject({ failed: 1 });
      });
  });
});

describe('Pods deleted after a success met before the deadline do not count, whatever arrived first', () => {
  // Corpus success-policy__met-earlier-deadline-passes-while-terminating. Cluster's order: index 0
  // succeeds at 300 s (success policy met), the deadline (310 s) passes while b and c terminate,
  // deleted at 330 s: upstream's success sync removed their finalizers uncounted. Complete, failed 0.
  const job = anIndexedJob(3, { activeDeadlineSeconds: 310, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
  const runs = (name: string, rv: number, index: number) => pod(name, rv, at(10), { index, phase: 'Running' });
  const deleting = (name: string, rv: number, index: number) => pod(name, rv, at(305), { index, phase: 'Running', deletionTimestamp: at(330) });
  const [aRuns, bRuns, cRuns] = [runs('a', 2, 0), runs('b', 3, 1), runs('c', 4, 2)];
  const aSucceeds = pod('a', 5, at(300), { index: 0, phase: 'Succeeded' });
  const aCounted = pod('a', 6, at(305), { index: 0, phase: 'Succeeded', finalizer: false });
  const [bDeleting, cDeleting] = [deleting('b', 7, 1), deleting('c', 8, 2)];
  const [bGone, cGone] = [podDeleted('b', at(335)), podDeleted('c', at(335))];
  const jobSeen = jobObserved(job, T0);

  // The Job arrives after the success, reads the deadline past on the clock so far and fails it;
  // the evidence of the success met first takes FailureTarget back. c, counted failed by that
  // failing sync and seen deleting (after the success) since, is not counted any more.
  it('the deadline written first, then taken back', () => {
    given(null, aCounted, cRuns, bGone, aSucceeds, jobSeen, bRuns, cDeleting, aRuns, cGone, bDeleting)
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy']);
        expect(status).toMatchObject({ succeeded: 1, failed: 0, terminating: 0, active: 0 });
      });
  });
});

describe('A pod the failing sync read Succeeded counts as a success, whichever arrived first', () => {
  // success-policy__backoff-limit-wins-in-same-sync: at :05:00 index 0 succeeds (the success
  // policy) and indexes 1 and 2 fail (backoffLimit 1): syncJob checks failures first, the Job
  // fails, and its failing sync counts the two still running as failed, index 0 as succeeded.
  const job = anIndexedJob(5, { backoffLimit: 1, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
  const running = [0, 1, 2, 3, 4].map((i) => pod(`p${i}`, 2 + i, at(10), { index: i }));
  const ended = [
    pod('p0', 7, at(300), { index: 0, phase: 'Succeeded' }),
    pod('p1', 8, at(300), { index: 1, phase: 'Failed' }),
    pod('p2', 9, at(300), { index: 2, phase: 'Failed' }),
  ];
  const stripped = [
    pod('p0', 10, at(335), { index: 0, phase: 'Succeeded', finalizer: false }),
    pod('p1', 11, at(335), { index: 1, phase: 'Failed', finalizer: false }),
    pod('p2', 12, at(335), { index: 2, phase: 'Failed', finalizer: false }),
  ];
  const deleted = [podDeleted('p3', at(335)), podDeleted('p4', at(335))];
  const FAILED = ['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded'];

  it("in the cluster's order: succeeded 1, failed 4", () => {
    given(null, jobAt(job, { suspend: false }, '1', at(0)), ...running, ...ended, ...stripped, ...deleted)
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(FAILED);
        expect(status).toMatchObject({ succeeded: 1, failed: 4, completedIndexes: '0' });
      });
  });

  it('the Job after the failures, index 0 seen running after the Job failed, its success of :05:00 last: succeeded 1, failed 4', () => {
    const [p0, p1, p2, p3, p4] = running;
    given(null, stripped[2]!, p4!, p2!, ended[2]!, ended[1]!, p3!, stripped[1]!, jobAt(job, { suspend: false }, '1', at(0)), p1!, ...deleted, p0!, stripped[0]!, ended[0]!)
      .when({ now: at(335) })
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(FAILED);
        expect(status).toMatchObject({ succeeded: 1, failed: 4, completedIndexes: '0' });
      });
  });

  it('a success seen only after the failure instant is no evidence: the failing sync read the pod running', () => {
    const [p0, p1, p2, p3, p4] = running;
    const later = pod('p0', 7, at(320), { index: 0, phase: 'Succeeded' });
    given(null, p1!, p2!, p3!, p4!, ended[1]!, ended[2]!, jobAt(job, { suspend: false }, '1', at(0)), p0!, later)
      .when({ now: at(320) })
      .thenStatus({ succeeded: 0, completedIndexes: '' });
  });
});

describe('A pod deleted after the success criteria were met is no failure, though an older observation of it arrives after its deletion', () => {
  // success-policy__met-earlier-deadline-passes-while-terminating: index 0 succeeds at :05:00 (the
  // success policy), the sync removes every finalizer and deletes indexes 1 and 2 (gone at :05:35).
  const job = anIndexedJob(3, { activeDeadlineSeconds: 310, backoffLimit: 6, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
  const [p0, p1, p2] = [0, 1, 2].map((i) => pod(`p${i}`, 2 + i, at(10), { index: i }));
  const succeeded = pod('p0', 5, at(300), { index: 0, phase: 'Succeeded' });
  const stripped = pod('p0', 6, at(305), { index: 0, phase: 'Succeeded', finalizer: false });
  const [deleting1, deleting2] = [1, 2].map((i) => pod(`p${i}`, 6 + i, at(305), { index: i, finalizer: false, deletionTimestamp: at(330) }));
  const COMPLETE = ['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy'];

  it("in the cluster's order: succeeded 1, failed 0", () => {
    given(null, jobAt(job, { suspend: false }, '1', at(0)), p0!, p1!, p2!, succeeded, stripped, deleting1!, deleting2!, podDeleted('p1', at(335)), podDeleted('p2', at(335)))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(COMPLETE);
        expect(status).toMatchObject({ succeeded: 1, failed: 0 });
      });
  });

  it('the deletions first, the pods running at :00:10 after them, the success decided last: still failed 0', () => {
    // The creations the Job asked for before it saw its pods are awaited until the expectations expire (tick).
    given(null, stripped, jobAt(job, { suspend: false }, '1', at(0)), podDeleted('p1', at(335)), succeeded, podDeleted('p2', at(335)), p2!, p1!, p0!, deleting1!, deleting2!, tick(at(700)))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(COMPLETE);
        expect(status).toMatchObject({ succeeded: 1, failed: 0 });
      });
  });
});
