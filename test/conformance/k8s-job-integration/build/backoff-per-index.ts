import { indexed } from './indexed-status.ts';
import { FAILURE_COUNT, has, SETTLE, Story, template } from './story.ts';

const TEST = 'TestBackoffLimitPerIndex';
const count = (n: number) => () => ({ [FAILURE_COUNT]: String(n) });

function job(parallelism: number, extra: Record<string, unknown>) {
  return { parallelism, completions: parallelism, completionMode: 'Indexed', template: template({ containerName: 'main-container' }), ...extra };
}

/** Creates the Job's pods (failure count 0) and checks upstream's first assertion. */
function started(s: Story, indexes: number[]): string[] {
  s.tick().after(1);
  const pods = s.created(indexes, count(0));
  s.expect({ status: indexed({ active: indexes.length }, '', '') });
  return pods;
}

/** Fails the active pod of `index`, lets the per-index backoff run out, and sees the replacement. */
function failAndReplace(s: Story, index: number, replacementCount: number): void {
  s.after(1).finishIndex(index, 'Failed').tick().after(SETTLE).tick().after(1);
  s.created([index], count(replacementCount));
}

export const backoffPerIndexStories = (): Story[] => {
  const succeeded = new Story({ slug: 'backoff-per-index__job-succeeded-after-one-failure', test: TEST, case: 'job succeeded', description: 'Index 0 fails once (limit 1 per index) and is replaced with failure count 1; then both indexes succeed.', spec: job(2, { backoffLimitPerIndex: 1 }) });
  started(succeeded, [0, 1]);
  failAndReplace(succeeded, 0, 1);
  succeeded.expect({ status: indexed({ active: 2, failed: 1 }, '', '') });
  succeeded.after(1).finishSome(2, 'Succeeded').tick().expect({ conditionsInclude: [has('Complete')] });

  const exceeded = new Story({ slug: 'backoff-per-index__index-exceeds-its-limit', test: TEST, case: 'job index fails due to exceeding backoff limit per index', description: 'Index 0 fails three times with backoffLimitPerIndex 2: replaced with failure counts 1 and 2, then marked failed; the Job ends Failed once index 1 succeeds.', spec: job(2, { backoffLimitPerIndex: 2 }) });
  started(exceeded, [0, 1]);
  failAndReplace(exceeded, 0, 1);
  exceeded.expect({ status: indexed({ active: 2, failed: 1 }, '', '') });
  failAndReplace(exceeded, 0, 2);
  exceeded.expect({ status: indexed({ active: 2, failed: 2 }, '', '') });
  exceeded.after(1).finishIndex(0, 'Failed').tick().expect({ status: indexed({ active: 1, failed: 3 }, '', '0') });
  exceeded.after(1).finishSome(1, 'Succeeded').tick().expect({ conditionsInclude: [has('Failed')] });

  const global = new Story({ slug: 'backoff-per-index__global-backoff-limit-first', test: TEST, case: 'job index fails due to exceeding the global backoff limit first', description: 'backoffLimit 2 is exceeded by the third failure (one per index) before any index reaches backoffLimitPerIndex 1: the two running pods are deleted and counted as failed, no index is marked failed.', spec: job(3, { backoffLimitPerIndex: 1, backoffLimit: 2 }) });
  started(global, [0, 1, 2]);
  failAndReplace(global, 0, 1);
  global.expect({ status: indexed({ active: 3, failed: 1 }, '', '') });
  failAndReplace(global, 1, 1);
  global.expect({ status: indexed({ active: 3, failed: 2 }, '', '') });
  const running = global.active().filter((name) => !name.startsWith('test-job-2-'));
  global.after(1).finishIndex(2, 'Failed').tick().expect({ status: { ...indexed({ active: 0, failed: 5, terminating: 2 }, '', '') } });
  global.after(1);
  for (const name of running) global.gone(name);
  global.expect({ conditionsInclude: [has('Failed', 'BackoffLimitExceeded')] });

  const continues = new Story({ slug: 'backoff-per-index__job-continues-after-failed-index', test: TEST, case: 'job continues execution after a failed index, the job is marked Failed due to the failed index', description: 'Index 0 fails for good (limit 0); index 1 keeps running and succeeds; the Job then fails because of the failed index.', spec: job(2, { backoffLimitPerIndex: 0 }) });
  started(continues, [0, 1]);
  continues.after(1).finishIndex(0, 'Failed').tick().expect({ status: indexed({ active: 1, failed: 1 }, '', '0') });
  continues.after(1).finishIndex(1, 'Succeeded').tick().expect({ status: indexed({ active: 0, failed: 1, succeeded: 1 }, '1', '0'), conditionsInclude: [has('Failed')] });

  const maxFailed = new Story({ slug: 'backoff-per-index__max-failed-indexes-ends-early', test: TEST, case: 'job execution terminated early due to exceeding max failed indexes', description: 'maxFailedIndexes 1: the second failed index fails the Job at once; the last running pod is deleted and counted as failed.', spec: job(3, { backoffLimitPerIndex: 0, maxFailedIndexes: 1 }) });
  const maxPods = started(maxFailed, [0, 1, 2]);
  maxFailed.after(1).finishIndex(0, 'Failed').tick().expect({ status: indexed({ active: 2, failed: 1 }, '', '0') });
  maxFailed.after(1).finishIndex(1, 'Failed').tick().expect({ status: indexed({ active: 0, failed: 3, terminating: 1 }, '', '0,1') });
  maxFailed.after(1).gone(maxPods[2] as string).expect({ conditionsInclude: [has('Failed', 'MaxFailedIndexesExceeded')] });

  const failIndex = new Story({
    slug: 'backoff-per-index__fail-index-rules',
    test: TEST,
    case: 'pod failure matching pod failure policy rule with FailIndex action',
    description: 'FailIndex rules on exit code 13 and on DisruptionTarget mark each index failed at its first failure, although backoffLimitPerIndex is 1.',
    spec: job(2, {
      backoffLimitPerIndex: 1,
      podFailurePolicy: {
        rules: [
          { action: 'FailIndex', onExitCodes: { operator: 'In', values: [13] } },
          { action: 'FailIndex', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
        ],
      },
    }),
  });
  started(failIndex, [0, 1]);
  failIndex.after(1).finishIndex(0, 'Failed', { exitCode: 13 }).tick().expect({ status: indexed({ active: 1, failed: 1 }, '', '0') });
  failIndex.after(1).finishIndex(1, 'Failed', { conditions: [{ type: 'DisruptionTarget', status: 'True' }], noContainers: true }).tick();
  failIndex.expect({ status: indexed({ active: 0, failed: 2 }, '', '0,1'), conditionsInclude: [has('Failed')] });

  return [succeeded, exceeded, global, continues, maxFailed, failIndex, delayedDeletion(), exponentialBackoff()];
};

/** TestBackoffLimitPerIndex_DelayedPodDeletion */
function delayedDeletion(): Story {
  const s = new Story({ slug: 'backoff-per-index__failed-pod-deleted-before-replacement', test: 'TestBackoffLimitPerIndex_DelayedPodDeletion', description: 'The failed pod is deleted by the user right after failing; the controller holds its finalizer until the replacement exists (failure count 1), then counts it.', spec: job(1, { backoffLimitPerIndex: 1 }) });
  const [first] = started(s, [0]) as [string];
  s.after(1).finish(first, 'Failed').tick();
  s.after(1).markDeleted(first).tick().after(SETTLE).tick().after(1);
  s.created([0], count(1));
  s.expect({ status: indexed({ active: 1, failed: 1 }, '', '') });
  s.after(1).untracked(first).gone(first).tick();
  s.after(1).finishIndex(0, 'Succeeded').tick().expect({ status: counts4(), conditionsInclude: [has('Complete')] });
  return s;
}

const counts4 = () => indexed({ active: 0, succeeded: 1, failed: 1 }, '0', '');

/**
 * TestBackoffLimitPerIndex_JobPodsCreatedWithExponentialBackoff: each index is recreated after its
 * own delay. Upstream shortens the base delay to 2 s and checks base <= gap < 2 x base for the
 * second pod of an index and 2 x base <= gap < 4 x base for the third; here the base is the
 * controller's default of 10 s, checked one second before and at the delay.
 */
function exponentialBackoff(): Story {
  const s = new Story({ slug: 'backoff-per-index__exponential-backoff-per-index', test: 'TestBackoffLimitPerIndex_JobPodsCreatedWithExponentialBackoff', description: 'Fail index 0 twice and index 1 once, succeed 0, fail 1 again, succeed 1: each replacement waits 10 s x 2^(failures of its index - 1) after the failure.', spec: job(2, { backoffLimitPerIndex: 2 }) });
  started(s, [0, 1]);
  const failWithDelay = (index: number, delay: number, newCount: number, want: Record<string, unknown>) => {
    s.after(1).finishIndex(index, 'Failed').tick();
    s.after(delay - 1).tick().expect({ podsCreated: 0 });
    s.after(1).tick().expect({ podsCreated: 1, createdIndexes: [index] });
    s.after(1).created([index], count(newCount));
    s.expect({ status: want });
  };
  failWithDelay(0, 10, 1, indexed({ active: 2, failed: 1 }, '', ''));
  failWithDelay(0, 20, 2, indexed({ active: 2, failed: 2 }, '', ''));
  failWithDelay(1, 10, 1, indexed({ active: 2, failed: 3 }, '', ''));
  s.after(1).finishIndex(0, 'Succeeded').tick().expect({ status: indexed({ active: 1, failed: 3, succeeded: 1 }, '0', '') });
  failWithDelay(1, 20, 2, indexed({ active: 1, failed: 4, succeeded: 1 }, '0', ''));
  s.after(1).finishIndex(1, 'Succeeded').tick().expect({ status: indexed({ active: 0, failed: 4, succeeded: 2 }, '0,1', ''), conditionsInclude: [has('Complete')] });
  return s;
}
