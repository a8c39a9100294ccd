import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../../local/local-stack.ts';
import { TraceRecorder } from '../../../local/sample/trace-recorder.ts';
import { startTestStack } from '../local/local-stack-fixture.ts';

// `npx jobfold get|describe|explain|history|status` against a local stack: given a fleet fed to
// the stack, when the client is run as a person runs it, then it prints what the API holds in
// kubectl's manners, follows every page, and fails on stderr with a non-zero exit.

const JOBFOLD = new URL('../../../cli/jobfold.ts', import.meta.url).pathname;
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'jobfold-client-'));
let stack: LocalStack;

/** Runs the client; resolves with its exit code and both outputs, whatever the code. */
async function jobfold(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [JOBFOLD, ...args], { env: { ...process.env, JOBFOLD_ENDPOINT: stack.url } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  stack = await startTestStack();
  const trace = new TraceRecorder('2026-01-01T00:00:00Z', 'c11e');
  const ok = trace.job('c1', 0, 'default', 'ok', {});
  trace.exitPod(trace.runPod(ok, 1, undefined), 3, 0);
  const bad = trace.job('c1', 0, 'default', 'bad', { backoffLimit: 0 });
  trace.exitPod(trace.runPod(bad, 1, undefined), 2, 1);
  // 105 Jobs in one namespace: two pages of the fleet list (100 per page).
  for (let i = 0; i < 105; i++) trace.job('c2', 4, 'many', `many-${String(i).padStart(3, '0')}`, {});
  const file = join(dir, 'fleet.jsonl');
  writeFileSync(file, trace.jsonl());
  await stack.replay(file, { speed: 1000 });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('jobfold get', () => {
  it('lists every cluster in aligned columns with AGE, following every page', async () => {
    const { code, stdout } = await jobfold('get', 'jobs', '-A');

    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CLUSTER {3}NAMESPACE {3}NAME {3,}STATUS {3,}REASON {3,}AGE$/);
    expect(lines).toHaveLength(1 + 2 + 105);
    const status = lines[0]!.indexOf('STATUS');
    expect(lines.every((line) => line.length <= status || line[status - 1] === ' ')).toBe(true);
    expect(stdout).toMatch(/\nc1 {8}default {5}bad {3,}Failed {3,}BackoffLimitExceeded {3}[0-9smhd]+\n/);
  });

  it('filters by cluster, namespace, state and reason', { timeout: 90_000 }, async () => {
    const failed = await jobfold('get', 'jobs', '--cluster', 'c1', '--state', 'Failed');
    const running = await jobfold('get', 'jobs', '--cluster', 'c2', '-n', 'many', '--state', 'Running', '-o', 'json');
    const byReason = await jobfold('get', 'jobs', '--reason', 'CompletionsReached', '-o', 'yaml');

    expect(failed.stdout.split('\n')[0]).toMatch(/^NAMESPACE {3}NAME {3}STATUS/); // no CLUSTER column with --cluster
    expect(failed.stdout).toContain('bad');
    expect(failed.stdout).not.toContain('ok ');
    expect((JSON.parse(running.stdout) as { items: unknown[] }).items).toHaveLength(105);
    expect((parseYaml(byReason.stdout) as { items: Array<{ name: string }> }).items.map((i) => i.name)).toEqual(['ok']);
  });

  it('says so on stderr when nothing matches, and refuses bad flags with exit 2', { timeout: 90_000 }, async () => {
    const none = await jobfold('get', 'jobs', '--cluster', 'c1', '--state', 'Running');
    const bad = await jobfold('get', 'jobs', '--state', 'Done');
    const unknown = await jobfold('get', 'pods');

    expect(none).toMatchObject({ code: 0, stdout: '', stderr: 'No Jobs found.\n' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--state: one of Running, Succeeded, Failed');
    expect(unknown.code).toBe(2);
  });
});

describe('jobfold describe, explain, history, status', () => {
  it('describes a Job from the service as replay does, with its commands and why', async () => {
    const { code, stdout } = await jobfold('describe', 'job', 'bad', '--cluster', 'c1');

    expect(code).toBe(0);
    expect(stdout).toMatch(/^Name: +bad\nNamespace: +default\nCluster: +c1\n/);
    expect(stdout).toContain('Pods Statuses:      0 Active (0 Ready) / 0 Succeeded / 1 Failed / 0 Terminating');
    expect(stdout).toMatch(/Failed +True +BackoffLimitExceeded +Job has reached the specified backoff limit/);
    expect(stdout).toContain('Explanation:\n  Outcome:  Failed');
  });

  it('explains, lists the history, and folds the status at a log position', { timeout: 120_000 }, async () => {
    const explain = await jobfold('explain', 'job', 'ok', '--cluster', 'c1', '-n', 'default');
    const history = await jobfold('history', 'job', 'ok', '--cluster', 'c1', '-o', 'json');
    const entries = (JSON.parse(history.stdout) as { entries: Array<{ seq: number; type: string }> }).entries;
    const first = await jobfold('status', 'job', 'ok', '--cluster', 'c1', '--at', '#1');
    const head = await jobfold('status', 'job', 'ok', '--cluster', 'c1', '-o', 'json');

    expect(explain.stdout).toMatch(/^Outcome: {2}Succeeded\n/);
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(entries[0]?.type).toBe('JobObserved');
    expect(first.stdout).toMatch(/^At: +#1 of \d+/);
    expect(first.stdout).toContain('Conditions:         <none>');
    expect(JSON.parse(head.stdout)).toMatchObject({ outcome: 'Succeeded', at: { seq: entries.length } });
  });

  it('reports the API\'s refusal on stderr with exit 1', { timeout: 90_000 }, async () => {
    const missing = await jobfold('describe', 'job', 'nope', '--cluster', 'c1');
    const noCluster = await jobfold('explain', 'job', 'ok');

    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe('Error: 404: job default/nope not found in cluster c1\n');
    expect(noCluster.code).toBe(2);
    expect(noCluster.stderr).toContain('--cluster is required');
  });

  it('has --help on every command', { timeout: 120_000 }, async () => {
    for (const command of ['get', 'describe', 'explain', 'history', 'status']) {
      const help = await jobfold(command, '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: jobfold ${command} `));
      expect(help.stdout).toContain('--endpoint URL');
    }
  });
});

describe('jobfold console', () => {
  it('serves the built console and forwards its API calls to the endpoint', { timeout: 90_000 }, async () => {
    const child = spawn(process.execPath, [JOBFOLD, 'console', '--endpoint', stack.url, '--port', '0']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          const match = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
          if (match) resolve(match[1]!);
        });
        child.once('exit', () => reject(new Error(`exited: ${text}`)));
      });
      const page = await fetch(`${url}/`);
      const proxied = await (await fetch(`${url}/v1/jobs?cluster=c1`)).json();
      const direct = await (await fetch(`${stack.url}/v1/jobs?cluster=c1`)).json();
      const refused = await fetch(`${url}/v1/jobs`, { method: 'POST' });

      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(proxied).toEqual(direct);
      expect(refused.status).toBe(405);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('says clearly when the console is not built', async () => {
    const missing = await jobfold('console', '--dist', join(dir, 'no-such-dist'));

    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('the web console is not built');
    expect(missing.stderr).toContain('npm run build:console');
  });
});
