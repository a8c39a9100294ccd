import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JAVA_REQUIRED_MESSAGE } from '../../../local/dynamodb-local.ts';
import { TraceRecorder } from '../../../local/sample/trace-recorder.ts';
import { servingUrl, startProcess } from '../../support/start-process.ts';

// `npm start` as a person runs it: node local/start.ts, with its own DynamoDB Local.

const START = new URL('../../../local/start.ts', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'jobfold-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Pids of running DynamoDB Local JVMs listening on `port` (from /proc, no ps needed). */
function dynamoDbLocalPids(port: string): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).flatMap((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const isJava = args.some((a) => a.endsWith('DynamoDBLocal.jar')) && args[0]?.endsWith('java');
      return isJava && args[args.indexOf('-port') + 1] === port ? [Number(pid)] : [];
    } catch {
      return []; // exited while we looked
    }
  });
}

describe('npm start', () => {
  it('prints its usage with --help', () => {
    const run = spawnSync(process.execPath, [START, '--help'], { encoding: 'utf8' });

    expect(run.status).toBe(0);
    for (const flag of ['--port', '--replay', '--no-sample', '--exit']) expect(run.stdout).toContain(flag);
  });

  it('refuses a bad port with exit code 2', () => {
    const run = spawnSync(process.execPath, [START, '--port', 'nope'], { encoding: 'utf8' });

    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--port');
  });

  it('says in one line what to install when Java is missing, and exits 1', () => {
    const run = spawnSync(process.execPath, [START, '--no-sample'], { encoding: 'utf8', env: { ...process.env, PATH: dir } });

    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(JAVA_REQUIRED_MESSAGE);
  });

  it('replays a trace, prints what was decided and exits with --exit, leaving no Java behind', async () => {
    const trace = new TraceRecorder('2026-01-01T00:00:00Z', 'f00d');
    const job = trace.job('cli-1', 0, 'default', 'leader-job', {
      completions: 2, parallelism: 2, completionMode: 'Indexed', successPolicy: { rules: [{ succeededIndexes: '0' }] },
    });
    const [leader, worker] = [0, 1].map((i) => trace.runPod(job, 1, i));
    trace.exitPod(leader!, 5, 0);
    // The worker's deletion right behind the leader's exit, as a fast cluster sends it: the Job's
    // writer decides at the leader's exit before it logs the deletion, so no pacing is needed.
    trace.deletePod(worker!, 6);
    const file = join(dir, 'trace.jsonl');
    writeFileSync(file, trace.jsonl());
    const out = startProcess(['--replay', file, '--exit']);
    const [, port] = await out.when(/DynamoDB Local http:\/\/127\.0\.0\.1:(\d+)/);

    expect(await out.exited()).toBe(0);
    expect(out.text()).toMatch(/cli-1\/default\/leader-job {2}→ {2}Complete \(SuccessPolicy\)/);
    expect(out.text()).toContain('Pod Termination Requested (JobFinishing, SuccessPolicy) ×1');
    expect(dynamoDbLocalPids(port!)).toEqual([]);
  }, 120_000);

  it('stops the server and DynamoDB Local on SIGINT, leaving no Java behind', async () => {
    const out = startProcess(['--no-sample']);
    const [, port] = await out.when(/DynamoDB Local http:\/\/127\.0\.0\.1:(\d+)/);
    const url = await servingUrl(out);
    await out.when(/waiting for events/);
    expect(dynamoDbLocalPids(port!)).not.toEqual([]);
    expect((await fetch(`${url}/local/status`)).status).toBe(200);

    out.child.kill('SIGINT');

    expect(await out.exited()).toBe(0);
    expect(out.text()).toContain('stopped');
    expect(dynamoDbLocalPids(port!)).toEqual([]);
    await expect(fetch(`${url}/local/status`)).rejects.toThrow();
  }, 120_000);
});
