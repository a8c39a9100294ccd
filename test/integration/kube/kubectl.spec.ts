import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { LocalStack } from '../../../local/local-stack.ts';
import { TraceRecorder, type JobRef } from '../../../local/sample/trace-recorder.ts';
import { kubectl, kubectlPath } from '../../support/kubectl.ts';
import { eventually, startTestStack } from '../local/local-stack-fixture.ts';

// The real kubectl (1.35, test/support/kubectl.ts) against `npm start`'s kube API, through the
// kubeconfig `jobfold kubeconfig` writes: given a fleet fed to the local stack (a Job failed by
// a named pod failure policy rule, a Job whose pods and itself the cluster deleted, a name
// reused, a JobSet), when kubectl is run as a person runs it, then it prints what jobfold holds.

const JOBFOLD = fileURLToPath(new URL('../../../cli/jobfold.ts', import.meta.url));
const JOBSET_SAMPLE = fileURLToPath(new URL('../../../samples/jobset-exit-code-3.jsonl', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jobfold-kubectl-'));
const kubeconfig = join(dir, 'config');
let stack: LocalStack;
const uids: Record<string, string> = {};

const run = (...args: string[]) => kubectl(kubeconfig, ['--context', 'jobfold-kc1', ...args]);

function deleteJob(trace: TraceRecorder, job: JobRef, at: number): void {
  trace.raw(job.cluster, at, 'Job Deleted', {
    // Keyed by the Job's uid, as the forwarder keys it, so it is written in order with the Job's events.
    eventId: `${job.uid}/deleted`, observedAt: trace.time(at), partitionKey: job.uid,
    object: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: job.name, namespace: job.namespace, uid: job.uid } },
  });
}

beforeAll(async () => {
  kubectlPath(); // extracted once, before the first command is timed
  stack = await startTestStack();
  const trace = new TraceRecorder('2026-01-01T00:00:00Z', 'c0de');
  const rule = { name: 'ExitCode42', action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } };
  const train = trace.job('kc1', 0, 'batch', 'train', { completionMode: 'Indexed', completions: 4, parallelism: 4, podFailurePolicy: { rules: [rule] } });
  const pods = [0, 1, 2, 3].map((i) => trace.runPod(train, 1, i));
  trace.exitPod(pods[3]!, 2, 42);
  for (const pod of pods.slice(0, 3)) trace.deletePod(pod, 3);
  const gone = trace.job('kc1', 0, 'batch', 'gone-pods', { completions: 2, parallelism: 2 });
  const gonePods = [trace.runPod(gone, 1, undefined), trace.runPod(gone, 1, undefined)];
  for (const pod of gonePods) trace.exitPod(pod, 2, 0);
  for (const pod of gonePods) trace.deletePod(pod, 4);
  deleteJob(trace, gone, 5);
  const first = trace.job('kc1', 0, 'batch', 'again', {});
  trace.exitPod(trace.runPod(first, 1, undefined), 2, 0);
  deleteJob(trace, first, 3);
  const second = trace.job('kc1', 4, 'batch', 'again', {});
  trace.runPod(second, 5, undefined);
  for (let i = 0; i < 5; i++) trace.job('kc1', 6, 'pages', `page-${i}`, {});
  Object.assign(uids, { train: train.uid, gone: gone.uid, first: first.uid, second: second.uid });
  const file = join(dir, 'fleet.jsonl');
  writeFileSync(file, trace.jsonl());
  await stack.replay(file, { speed: 1000 });
  await stack.replay(JOBSET_SAMPLE, { speed: 1000 });
  await promisify(execFile)(process.execPath, [JOBFOLD, 'kubeconfig', '--endpoint', stack.url, '--output', kubeconfig]);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('kubectl get jobs', () => {
  it('lists every namespace with upstream\'s columns, the newest Job of a reused name, and pages at --chunk-size', async () => {
    const { code, stdout, stderr } = await run('get', 'jobs', '-A', '--chunk-size=2', '-v=6');

    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE +NAME +STATUS +COMPLETIONS +DURATION +AGE$/);
    expect(lines.slice(1).map((l) => l.split(/ +/).slice(0, 2).join('/')).sort()).toEqual(
      ['batch/again', 'batch/gone-pods', 'batch/train', 'pages/page-0', 'pages/page-1', 'pages/page-2', 'pages/page-3', 'pages/page-4'],
    );
    expect(stdout).toMatch(/\nbatch +train +Failed +0\/4 /);
    expect(stdout).toMatch(/\nbatch +gone-pods +Complete +2\/2 /);
    expect(stdout).toMatch(/\nbatch +again +Running +0\/1 /);
    // Four pages of two: the continue tokens kubectl followed.
    expect(stderr.match(/jobs\?continue=/g)?.length).toBe(3);
  });

  it('adds CONTAINERS, IMAGES and SELECTOR with -o wide, and selects by jobfold\'s labels', async () => {
    const wide = await run('get', 'jobs', '-n', 'batch', '-o', 'wide');
    const deleted = await run('get', 'jobs', '-n', 'batch', '-l', 'jobfold.io/deleted=true', '-o', 'name');
    const older = await run('get', 'jobs', '-n', 'batch', '-l', `batch.kubernetes.io/controller-uid=${uids['first']}`, '-o', 'jsonpath={.items[*].metadata.uid}');
    const superseded = await run('get', 'jobs', '-n', 'batch', '-l', 'jobfold.io/superseded=true', '--show-labels');

    expect(wide.stdout.split('\n')[0]).toMatch(/^NAME +STATUS +COMPLETIONS +DURATION +AGE +CONTAINERS +IMAGES +SELECTOR$/);
    expect(wide.stdout).toMatch(new RegExp(`\\ntrain +Failed .* main +registry\\.example\\.com/train:1 +batch\\.kubernetes\\.io/controller-uid=${uids['train']}\\n`));
    // The deleted first `again` is superseded by the second: listed only when asked for.
    expect(deleted.stdout.trim().split('\n')).toEqual(['job.batch/gone-pods']);
    expect(older.stdout).toBe(uids['first']);
    expect(superseded.stdout).toMatch(/\nagain +Complete +1\/1 .*jobfold\.io\/deleted=true,jobfold\.io\/superseded=true\n$/);
  });

  it('shows a Job with the status jobfold folded, as GET /v1 has it', async () => {
    const { stdout } = await run('get', 'job', 'train', '-n', 'batch', '-o', 'json');
    const served = JSON.parse(stdout) as { metadata: { uid: string; labels: Record<string, string> }; status: Record<string, unknown> };
    const view = await (await fetch(`${stack.url}/v1/clusters/kc1/namespaces/batch/jobs/train`)).json() as { status: Record<string, unknown> };

    expect(served.metadata.uid).toBe(uids['train']);
    expect(served.status).toEqual(asServed(view.status));
    expect((served.status['conditions'] as { type: string }[]).map((c) => c.type)).toEqual(['FailureTarget', 'Failed']);
  });
});

/** The /v1 view's status as the API server writes it: times to the second, zero and empty left out. */
function asServed(status: Record<string, unknown>): Record<string, unknown> {
  const second = (t: unknown) => (typeof t === 'string' ? new Date(Math.floor(Date.parse(t) / 1000) * 1000).toISOString().replace('.000Z', 'Z') : undefined);
  const out: Record<string, unknown> = { ready: status['ready'], terminating: status['terminating'], uncountedTerminatedPods: {} };
  const conditions = status['conditions'] as Record<string, string>[];
  if (conditions.length > 0) {
    out['conditions'] = conditions.map((c) => ({
      type: c['type'], status: c['status'], lastProbeTime: second(c['lastProbeTime'] ?? c['lastTransitionTime']),
      lastTransitionTime: second(c['lastTransitionTime']), ...(c['reason'] ? { reason: c['reason'] } : {}), ...(c['message'] ? { message: c['message'] } : {}),
    }));
  }
  for (const time of ['startTime', 'completionTime']) if (status[time]) out[time] = second(status[time]);
  for (const count of ['active', 'succeeded', 'failed']) if (status[count]) out[count] = status[count];
  if (status['completedIndexes']) out['completedIndexes'] = status['completedIndexes'];
  if (status['failedIndexes'] !== null && status['failedIndexes'] !== undefined) out['failedIndexes'] = status['failedIndexes'];
  return out;
}

describe('kubectl discovery, formats and server-side selection', () => {
  it('lists the resources it serves, read-only, with api-resources', async () => {
    const { code, stdout } = await run('api-resources', '-o', 'wide', '--sort-by=name');

    expect(code).toBe(0);
    const rows = stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^NAME +SHORTNAMES +APIVERSION +NAMESPACED +KIND +VERBS +CATEGORIES$/);
    expect(rows.slice(1).map((row) => row.trim().split(/ +/).filter((cell) => !/^(po|ev|ns|true|false|all)$/.test(cell)).join(' '))).toEqual([
      'events v1 Event get,list,watch',
      'jobs batch/v1 Job get,list,watch',
      'jobsets jobset.x-k8s.io/v1alpha2 JobSet get,list,watch',
      'namespaces v1 Namespace get,list,watch',
      'pods v1 Pod get,list,watch',
    ]);
  });

  it('answers the API server\'s probes, as scripts and dashboards check a cluster is up', async () => {
    const probes = await Promise.all(['/readyz', '/livez', '/healthz'].map((path) => run('get', '--raw', path)));

    expect(probes.map((p) => `${p.code} ${p.stdout}`)).toEqual(['0 ok', '0 ok', '0 ok']);
  });

  it('prints a Job as YAML exactly as it prints it as JSON', async () => {
    const yaml = await run('get', 'job', 'train', '-n', 'batch', '-o', 'yaml');
    const json = await run('get', 'job', 'train', '-n', 'batch', '-o', 'json');

    expect(yaml.code).toBe(0);
    expect(parseYaml(yaml.stdout)).toEqual(JSON.parse(json.stdout));
    expect(yaml.stdout).toMatch(/^apiVersion: batch\/v1\nkind: Job\n/);
  });

  it('selects Jobs by field on the server, and names the fields it can select by', async () => {
    const byName = await run('get', 'jobs', '-A', '--field-selector', 'metadata.name=train', '-o', 'name');
    const succeeded = await run('get', 'jobs', '-n', 'batch', '--field-selector', 'status.successful=2', '-o', 'name');
    const unknown = await run('get', 'jobs', '-A', '--field-selector', 'spec.parallelism=4');

    expect(byName.stdout.trim()).toBe('job.batch/train');
    expect(succeeded.stdout.trim()).toBe('job.batch/gone-pods');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Error from server \(BadRequest\): .*field label not supported: spec\.parallelism \(supported: metadata\.name, metadata\.namespace, status\.successful\)/);
  });

  it('waits for a Job\'s condition, as a script waits for a cluster\'s', async () => {
    const failed = await run('wait', '--for=condition=Failed', 'job/train', '-n', 'batch', '--timeout=30s');
    const complete = await run('wait', '--for=condition=Complete', 'job/train', '-n', 'batch', '--timeout=2s');

    expect({ code: failed.code, stdout: failed.stdout.trim() }).toEqual({ code: 0, stdout: 'job.batch/train condition met' });
    expect(complete.code).toBe(1);
    expect(complete.stderr).toMatch(/timed out waiting for the condition on jobs\/train/);
  });
});

describe('kubectl describe and events', () => {
  it('describes a Job with the Events of its decisions: upstream\'s reason, jobfold\'s evidence, the exact uid', async () => {
    const { code, stdout } = await run('describe', 'job', 'train', '-n', 'batch');

    expect(code).toBe(0);
    expect(stdout).toMatch(/Pods Statuses: +0 Active \(0 Ready\) \/ 0 Succeeded \/ 4 Failed/);
    const events = stdout.slice(stdout.indexOf('Events:'));
    expect(events).toMatch(/Warning +PodFailurePolicy_ExitCode42 .* jobfold +Container main for pod batch\/train-3-\w+ failed with exit code 42 matching FailJob rule at index 0 \(jobfold: FailureTarget: PodFailurePolicy_ExitCode42 — rule 0 "ExitCode42" matched container main of pod batch\/train-3-\w+ \(index 3\) exit code 42, event #\d+/);
    expect(events.match(/Normal +SuccessfulDelete .* Deleted pod: train-[012]-\w+ \(jobfold: the Job's outcome was decided/g)).toHaveLength(3);
  });

  it('lists the events of one Job by --field-selector involvedObject.name', async () => {
    const { stdout } = await run('get', 'events', '-n', 'batch', '--field-selector', 'involvedObject.name=gone-pods');

    expect(stdout.split('\n')[0]).toMatch(/^LAST SEEN +TYPE +REASON +OBJECT +MESSAGE$/);
    expect(stdout).toMatch(/Normal +Completed +job\/gone-pods +Job completed \(jobfold: SuccessCriteriaMet: CompletionsReached — 2 of 2 completions succeeded/);
    expect(stdout).not.toContain('job/train');
  });
});

describe('kubectl get pods', () => {
  it('lists the pods of a Job the cluster deleted, with all its pods, by job-name', async () => {
    const { code, stdout } = await run('get', 'pods', '-n', 'batch', '-l', 'job-name=gone-pods', '--show-labels');

    expect(code).toBe(0);
    const rows = stdout.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatch(/^gone-pods-\w+ +0\/1 +Completed +0 +\S+ +\S*jobfold\.io\/deleted=true/);
      expect(row).toContain(`batch.kubernetes.io/controller-uid=${uids['gone']}`);
    }
  });
});

describe('kubectl get jobsets', () => {
  it('lists JobSets with the CRD\'s printer columns', async () => {
    const { code, stdout } = await kubectl(kubeconfig, ['--context', 'jobfold-dev-eu-1', 'get', 'jobsets', '-A']);

    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^NAMESPACE +NAME +TERMINALSTATE +RESTARTS +COMPLETED +SUSPENDED +AGE$/);
    const [header = '', row = ''] = stdout.split('\n');
    const cell = (name: string) => row.slice(header.search(new RegExp(`(^| )${name}( |$)`)) + (header.startsWith(name) ? 0 : 1)).split(/ {2,}/)[0]?.trim();
    expect(row.startsWith('default ')).toBe(true);
    expect(cell('NAME')).toBe('restart-job-example');
    expect(cell('RESTARTS')).toMatch(/^\d+$/);
    expect(cell('SUSPENDED')).toBe('false');
  });
});

describe('kubectl writes, and what only the cluster has', () => {
  it('refuses delete with the read-only Status', async () => {
    const { code, stderr } = await run('delete', 'job', 'train', '-n', 'batch');

    expect(code).toBe(1);
    expect(stderr).toMatch(/Error from server \(MethodNotAllowed\): jobfold is read-only: DELETE jobs "train" \(batch\/v1\) in namespace batch is not served here/);
  });

  it('answers auth can-i as the API server does: reads yes, writes and logs no, saying where to go', async () => {
    const list = await run('auth', 'can-i', 'list', 'jobs', '-n', 'batch');
    const watch = await run('auth', 'can-i', 'watch', 'jobsets.jobset.x-k8s.io', '-A');
    const remove = await run('auth', 'can-i', 'delete', 'jobs', '-n', 'batch');
    const logs = await run('auth', 'can-i', 'get', 'pods', '--subresource=log', '-n', 'batch');
    const rules = await run('auth', 'can-i', '--list', '-n', 'batch');

    expect([list, watch].map((r) => `${r.code} ${r.stdout.trim()}`)).toEqual(['0 yes', '0 yes']);
    expect(remove.code).toBe(1);
    expect(remove.stdout.trim()).toBe("no - jobfold is read-only: it serves jobs.batch for get, list, watch; to delete them, use the cluster's own API server (your kubectl context for kc1, not jobfold-kc1)");
    expect(logs.stdout.trim()).toMatch(/^no - jobfold keeps no container logs: for pods\/log/);
    expect(rules.stdout).toMatch(/\njobs\.batch +\[\] +\[\] +\[get list watch\]\n/);
    expect(rules.stdout).not.toMatch(/delete|create|update|patch/);
  });

  it('says a pod\'s logs and a way into its containers are the cluster\'s, and which context has them', async () => {
    const logs = await run('logs', 'job/gone-pods', '-n', 'batch');
    const exec = await run('exec', 'job/again', '-n', 'batch', '--', 'true');

    expect(logs.code).toBe(1);
    expect(logs.stderr).toMatch(/Error from server \(NotFound\): jobfold keeps no container logs: GET pods\/log "gone-pods-\w+" \(v1\) in namespace batch is not served here\. .*use the cluster's own API server \(your kubectl context for kc1, not jobfold-kc1\)/);
    expect(exec.code).toBe(1);
    expect(exec.stderr).toMatch(/Error from server \(NotFound\): jobfold reaches into no container: POST pods\/exec "again-\w+" \(v1\) in namespace batch is not served here\./);
  });
});

describe('kubectl get -w', () => {
  it('prints a Job created while it watches', { timeout: 120_000 }, async () => {
    const child = spawn(kubectlPath(), ['--kubeconfig', kubeconfig, '--cache-dir', `${kubeconfig}.cache`, '--context', 'jobfold-kc1', 'get', 'jobs', '-n', 'pages', '-w']);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    try {
      await eventually(() => (out.includes('page-4') ? true : undefined), 60_000);
      const trace = new TraceRecorder(new Date().toISOString(), 'c0df');
      trace.job('kc1', 0, 'pages', 'late', {});
      const file = join(dir, 'late.jsonl');
      writeFileSync(file, trace.jsonl());
      await stack.replay(file, { speed: 1000 });

      await eventually(() => (/\nlate +Running +0\/1 /.test(out) ? true : undefined), 30_000);
    } finally {
      child.kill();
    }
  });
});
