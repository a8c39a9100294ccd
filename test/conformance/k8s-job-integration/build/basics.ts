import { indexed } from './indexed-status.ts';
import { counts, has, SETTLE, Story, template } from './story.ts';

/** TestNonParallelJob: one pod fails and is replaced; the replacement succeeds. */
function nonParallel(): Story {
  const s = new Story({ slug: 'basics__non-parallel-job', test: 'TestNonParallelJob', description: 'A one-pod Job: the failed pod is replaced after the backoff; the Job completes when the replacement succeeds. Controller restarts in between change nothing for a fold.', spec: { template: template() } });
  s.tick().after(1).created(1);
  s.expect({ status: counts({ active: 1 }) });
  s.after(1).finishSome(1, 'Failed').tick().after(SETTLE).tick().after(1).created(1);
  s.expect({ status: counts({ active: 1, failed: 1 }) });
  s.after(1).finishSome(1, 'Succeeded').tick().expect({ status: counts({ failed: 1, succeeded: 1 }), conditionsInclude: [has('Complete')] });
  return s;
}

/** TestParallelJob: parallelism 5, no completions (work queue). */
function parallel(): Story {
  const s = new Story({ slug: 'basics__parallel-work-queue-job', test: 'TestParallelJob', description: 'Work-queue Job of parallelism 5: ready pods are counted, failed pods replaced until the first success, after which no pod is created; it completes when the rest succeed.', spec: { parallelism: 5, template: template() } });
  s.tick().after(1).created(5);
  s.expect({ status: counts({ active: 5 }) });
  s.after(1).ready(2).tick().expect({ status: counts({ active: 5, ready: 2 }) });
  s.after(1).finishSome(2, 'Failed').tick().after(SETTLE).tick().after(1).created(2);
  s.expect({ status: counts({ active: 5, failed: 2 }) });
  s.after(1).finishSome(1, 'Succeeded').tick().expect({ status: counts({ active: 4, failed: 2, succeeded: 1 }) });
  s.after(1).finishSome(2, 'Failed').tick().after(SETTLE).tick().expect({ podsCreated: 0, status: counts({ active: 2, failed: 4, succeeded: 1 }) });
  s.after(1).finishSome(2, 'Succeeded').tick().expect({ status: counts({ failed: 4, succeeded: 3 }), conditionsInclude: [has('Complete')] });
  return s;
}

/** TestParallelJobChangingParallelism */
function changingParallelism(): Story {
  const s = new Story({
    slug: 'basics__parallelism-down-and-up',
    test: 'TestParallelJobChangingParallelism',
    description: 'Parallelism 5 -> 2 deletes three pods without counting them as failures (backoffLimit 2 is not reached); 2 -> 4 creates two; four successes complete the work-queue Job.',
    spec: { backoffLimit: 2, parallelism: 5, template: template() },
    notes: 'The five pods are observed one second apart so that "newer first" (upstream ActivePods order) decides which three are deleted; in upstream the choice among equal pods is arbitrary and only the count is asserted.',
  });
  s.tick();
  const pods: string[] = [];
  for (let i = 0; i < 5; i++) pods.push(...s.after(1).created(1));
  s.expect({ status: counts({ active: 5 }) });
  s.after(1).updateJob((spec) => {
    spec['parallelism'] = 2;
  });
  s.after(1);
  for (const name of pods.slice(2)) s.gone(name);
  s.expect({ status: counts({ active: 2 }) });
  s.after(1).updateJob((spec) => {
    spec['parallelism'] = 4;
  });
  s.after(1).created(2);
  s.expect({ status: counts({ active: 4 }) });
  s.after(1).finishSome(4, 'Succeeded').tick().expect({ status: counts({ succeeded: 4 }), conditionsInclude: [has('Complete')] });
  return s;
}

/** TestParallelJobWithCompletions (upstream lowers the per-sync limits to 10; the outcome is the same). */
function withCompletions(): Story {
  const s = new Story({ slug: 'basics__parallel-job-with-completions', test: 'TestParallelJobWithCompletions', description: 'Parallelism 54, completions 56: ready counted, failed pods replaced, pods created until succeeded reaches completions.', spec: { parallelism: 54, completions: 56, template: template() }, notes: 'Upstream sets MaxUncountedPods and MaxPodCreateDeletePerSync to 10 to force partial syncs; the asserted outcomes do not depend on them.' });
  s.tick().after(1).created(54);
  s.expect({ status: counts({ active: 54 }) });
  s.after(1).ready(52).tick().expect({ status: counts({ active: 54, ready: 52 }) });
  s.after(1).finishSome(2, 'Failed').tick().after(SETTLE).tick().after(1).created(2);
  s.expect({ status: counts({ active: 54, failed: 2, ready: 50 }) });
  s.after(1).finishSome(53, 'Succeeded').tick().after(1).created(2);
  s.expect({ status: counts({ active: 3, failed: 2, succeeded: 53 }) });
  s.after(1).finishSome(3, 'Succeeded').tick().expect({ status: counts({ failed: 2, succeeded: 56 }), conditionsInclude: [has('Complete')] });
  return s;
}

/** TestIndexedJob */
function indexedJob(): Story {
  const s = new Story({ slug: 'basics__indexed-job', test: 'TestIndexedJob', description: 'Indexed, parallelism 3 of 4: index 1 succeeding lets index 3 start; failed index 2 is recreated; all succeed.', spec: { parallelism: 3, completions: 4, completionMode: 'Indexed', template: template() } });
  s.tick().after(1).created([0, 1, 2]);
  s.expect({ status: indexed({ active: 3 }, '', null) });
  s.after(1).finishIndex(1, 'Succeeded').tick().after(1).created([3]);
  s.expect({ status: indexed({ active: 3, succeeded: 1 }, '1', null) });
  s.after(1).finishIndex(2, 'Failed').tick().after(SETTLE).tick().after(1).created([2]);
  s.expect({ status: indexed({ active: 3, failed: 1, succeeded: 1 }, '1', null) });
  s.after(1).finishSome(3, 'Succeeded').tick().expect({ status: indexed({ active: 0, failed: 1, succeeded: 4 }, '0-3', null), conditionsInclude: [has('Complete')] });
  return s;
}

/** TestFinalizersClearedWhenBackoffLimitExceeded */
function finalizersCleared(): Story {
  const s = new Story({ slug: 'basics__backoff-limit-zero-with-hundred-pods', test: 'TestFinalizersClearedWhenBackoffLimitExceeded', description: 'Indexed 100/100 with backoffLimit 0: one failure fails the Job; the 99 running pods are deleted and the Job ends Failed.', spec: { completionMode: 'Indexed', completions: 100, parallelism: 100, backoffLimit: 0, template: template() } });
  s.tick().after(1);
  const pods = s.created(Array.from({ length: 100 }, (_, i) => i));
  s.after(1).finishIndex(0, 'Failed').tick();
  s.after(1);
  for (const name of pods.slice(1)) s.gone(name);
  s.expect({ conditionsInclude: [has('Failed', 'BackoffLimitExceeded')] });
  return s;
}

/** TestJobPodsCreatedWithExponentialBackoff (base delay 10 s here, 2 s in the upstream test). */
function exponentialBackoff(): Story {
  const s = new Story({ slug: 'basics__pods-recreated-with-exponential-backoff', test: 'TestJobPodsCreatedWithExponentialBackoff', description: 'The second pod is created between 1x and 2x the base delay after the first failure, the third between 2x and 4x after the second.', spec: { template: template() }, notes: 'Upstream sets the base delay to 2 s and checks the gaps between creation and the previous finish; here the controller default of 10 s is checked one second before and at the delay.' });
  s.tick().after(1).created(1);
  s.expect({ status: counts({ active: 1 }) });
  const failWithDelay = (delay: number, failed: number) => {
    s.after(1).finishSome(1, 'Failed').tick();
    s.after(delay - 1).tick().expect({ podsCreated: 0 });
    s.after(1).tick().expect({ podsCreated: 1 });
    s.after(1).created(1);
    s.expect({ status: counts({ active: 1, failed }) });
  };
  failWithDelay(10, 1);
  failWithDelay(20, 2);
  return s;
}

/** TestJobFailedWithInterrupts */
function failedWithInterrupts(): Story {
  const s = new Story({ slug: 'basics__failed-despite-later-successes', test: 'TestJobFailedWithInterrupts', description: 'backoffLimit 0, ten scheduled pods: one fails, then the other nine succeed while being deleted; the Job is Failed.', spec: { completions: 10, parallelism: 10, backoffLimit: 0, template: template() }, notes: 'The pods are scheduled in upstream (nodeName foo), so deleted pods linger until the test finishes them; the controller restart is a no-op for a fold.' });
  s.tick().after(1);
  const pods = s.created(10);
  s.expect({ status: counts({ active: 10 }) });
  s.after(1).finish(pods[0] as string, 'Failed').tick();
  s.after(1);
  for (const name of pods.slice(1)) {
    s.untracked(name).update(name, (p) => {
      p.deletionTimestamp = '2026-01-01T00:00:03Z';
    });
    s.finish(name, 'Succeeded');
  }
  s.expect({ conditionsInclude: [has('Failed')] });
  return s;
}

export const basicStories = (): Story[] => [nonParallel(), parallel(), changingParallelism(), withCompletions(), indexedJob(), finalizersCleared(), exponentialBackoff(), failedWithInterrupts()];
