import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TraceRecorder } from './trace-recorder.ts';

// The sample fleet trace (samples/fleet.jsonl): three clusters, the stories of samples/README.md.
// Regenerate with `node local/sample/fleet-trace.ts`. Times are seconds after the trace start;
// `npm start` plays them 10× faster (local/trace/time-shift.ts). The clusters delete terminated
// pods 20 trace seconds (2 s of wall clock) after the decision that terminates them, and the
// deadline Job's pod 85 trace seconds (8.5 s) after the Job started, past its 5 s deadline.

export const FLEET_TRACE_START = '2026-03-02T09:00:00Z';

export function fleetTrace(): string {
  const trace = new TraceRecorder(FLEET_TRACE_START);
  const indexed = (completions: number, more: Record<string, unknown>) => ({
    completions, parallelism: completions, completionMode: 'Indexed', backoffLimit: 6, ...more,
  });

  // prod-eu-1 — KEP-3998 story 1: only the leader (index 0) has to succeed.
  const leader = trace.job('prod-eu-1', 0, 'ml-training', 'leader-only', indexed(5, {
    successPolicy: { rules: [{ succeededIndexes: '0' }] },
  }));
  const leaderPods = [0, 1, 2, 3, 4].map((i) => trace.runPod(leader, 2, i));
  trace.exitPod(leaderPods[0]!, 30, 0);
  for (const pod of leaderPods.slice(1)) trace.deletePod(pod, 50);

  // prod-eu-1 — KEP-3998 story 2: the leader, or any five of the nine workers.
  const either = trace.job('prod-eu-1', 4, 'ml-training', 'leader-or-workers', indexed(10, {
    successPolicy: { rules: [{ succeededIndexes: '0' }, { succeededIndexes: '1-9', succeededCount: 5 }] },
  }));
  const eitherPods = Array.from({ length: 10 }, (_, i) => trace.runPod(either, 6, i));
  [1, 2, 3, 4, 5].forEach((i, k) => trace.exitPod(eitherPods[i]!, 20 + 2 * k, 0));
  for (const i of [0, 6, 7, 8, 9]) trace.deletePod(eitherPods[i]!, 48);

  // prod-us-1 — KEP-4443: a named FailJob rule; a pod exits with code 2.
  const named = trace.job('prod-us-1', 8, 'batch', 'train-exit2', indexed(3, {
    podFailurePolicy: {
      rules: [
        { name: 'ExitCode2', action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [2] } },
        { name: 'Disrupted', action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
      ],
    },
  }));
  const namedPods = [0, 1, 2].map((i) => trace.runPod(named, 10, i));
  trace.exitPod(namedPods[1]!, 40, 2);
  trace.deletePod(namedPods[0]!, 60);
  trace.deletePod(namedPods[2]!, 60);

  // prod-us-1 — backoffLimitPerIndex 1: index 2 fails twice and is marked failed; the others succeed.
  const perIndex = trace.job('prod-us-1', 12, 'batch', 'shard-scan', indexed(4, { backoffLimitPerIndex: 1 }));
  const shards = [0, 1, 2, 3].map((i) => trace.runPod(perIndex, 14, i));
  trace.exitPod(shards[2]!, 25, 1);
  const retry = trace.runPod(perIndex, 27, 2, 1);
  for (const i of [0, 1, 3]) trace.exitPod(shards[i]!, 35, 0);
  trace.exitPod(retry, 45, 1);

  // dev-ap-1 — activeDeadlineSeconds 5: the pod runs on; jobfold fails the Job on the wall clock.
  const deadline = trace.job('dev-ap-1', 15, 'reports', 'nightly-report', {
    completions: 1, parallelism: 1, backoffLimit: 2, activeDeadlineSeconds: 5,
  });
  const report = trace.runPod(deadline, 17, undefined);
  trace.deletePod(report, 100);

  // dev-ap-1 — a plain Job that completes.
  const hello = trace.job('dev-ap-1', 50, 'reports', 'hello', { completions: 1, parallelism: 1, backoffLimit: 2 });
  trace.exitPod(trace.runPod(hello, 52, undefined), 60, 0);

  // dev-ap-1 — the runs of a CronJob, a family `jobfold advise` has advice for (docs/advise.md):
  // nightly-etl runs two shards (backoffLimit 1). Five runs succeed in 20–30 s. Two fail with
  // exit code 3 on both shards, the second 60 s in: the Job fails on backoff, no retry ever
  // having succeeded after that exit code.
  const owner = { ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly-etl', uid: 'c0c0c0c0-5a3f-4e7b-9c21-00000000e71e', controller: true, blockOwnerDeletion: true }] };
  const etlRun = (run: number, at: number) =>
    trace.job('dev-ap-1', at, 'etl', `nightly-etl-${29_482_560 + run * 1440}`, { completions: 2, parallelism: 2, backoffLimit: 1 }, owner);
  [20, 24, 30, 26, 22].forEach((took, run) => {
    const job = etlRun(run, 20 + 3 * run);
    const shards = [trace.runPod(job, 22 + 3 * run, undefined), trace.runPod(job, 22 + 3 * run, undefined)];
    trace.exitPod(shards[0]!, 20 + 3 * run + took - 4, 0);
    trace.exitPod(shards[1]!, 20 + 3 * run + took, 0);
  });
  for (const [run, at] of [[5, 25], [6, 31]] as const) {
    const job = etlRun(run, at);
    const shards = [trace.runPod(job, at + 2, undefined), trace.runPod(job, at + 2, undefined)];
    trace.exitPod(shards[0]!, at + 12, 3);
    trace.exitPod(shards[1]!, at + 60, 3);
  }

  // dev-ap-1 — a standalone pod names no Job: jobfold refuses it (GET /local/rejected says why).
  trace.raw('dev-ap-1', 70, 'Pod Observed', {
    eventId: 'c0ffee00-0000-4000-8000-000000000001/2001',
    observedAt: trace.time(70),
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'debug-shell', namespace: 'reports', uid: 'c0ffee00-0000-4000-8000-000000000001' }, status: { phase: 'Running' } },
  });
  return trace.jsonl();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = fileURLToPath(new URL('../../samples/fleet.jsonl', import.meta.url));
  writeFileSync(target, fleetTrace());
  console.log(`wrote ${target}`);
}
