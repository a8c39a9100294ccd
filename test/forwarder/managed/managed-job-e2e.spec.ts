import { afterEach, describe, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';
import { playManaged, scenario } from './play-managed.ts';

// Managed Jobs end to end (play-managed.ts): a conformance scenario with spec.managedBy naming
// jobfold, played through the service, the command queue, the forwarder and a fake API server,
// the observations delivered in the order the forwarder sent them. After every step the Job on
// the API server holds exactly the status the fold decided last.

const SCENARIOS = [
  'completions__work-queue-job-start',
  'completions__status-change-counts-succeeded',
  'completions__too-many-active-pods-deletes-excess',
  'backoff-limit__never-failures-exceed-limit',
  'backoff-per-index__fail-index-action',
  'backoff-per-index__job-fails-with-failed-indexes',
  'deadline__deadline-job-finished-start-time-set',
  'indexed__indexed-some-failed-pods-recreated',
  'pod-failure-policy__fail-job-waits-for-terminating-pods',
  'pod-replacement__indexed-policy-failed-terminating-pod-blocks-a-slot',
  'success-policy__met-earlier-complete-once-no-pod-is-left',
  'suspend__suspend-deletes-active-pods',
  // From the project's translation of upstream's integration tests (Job edits included).
  'integration:basics__indexed-job',
  'integration:elastic-indexed__scale-down',
  'integration:suspend__resume-suspended-job',
  'integration:backoff-per-index__job-succeeded-after-one-failure',
];

let cluster: Harness | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

describe.each(SCENARIOS)('Managed Job end to end: %s', (id) => {
  it('the Job on the API server holds the status the fold decided, at every step', async () => {
    cluster = await startHarness();
    await playManaged(cluster, scenario(id));
  });
});
