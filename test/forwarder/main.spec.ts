import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLUSTER_ID, eventually, QUEUE, startFakes, type Fakes } from './harness.ts';
import { aJob } from './objects.ts';

const MAIN = new URL('../../forwarder/main.ts', import.meta.url).pathname;

let fakes: Fakes | undefined;
let spoolDir: string | undefined;
afterEach(async () => {
  await Promise.all([fakes?.kube.close(), fakes?.bus.close(), fakes?.sqs.close()]);
  if (spoolDir) await rm(spoolDir, { recursive: true, force: true });
});

describe('The container start command (node forwarder/main.ts)', () => {
  it('runs from endpoint overrides alone, serves metrics, and stops cleanly on SIGTERM', async () => {
    fakes = await startFakes();
    spoolDir = await mkdtemp(join(tmpdir(), 'jobfold-main-'));
    const job = fakes.kube.store.create('jobs', aJob({ name: 'from-main' }));
    const child = spawn(process.execPath, [MAIN, '--kube-server', fakes.kube.url, '--events-endpoint', fakes.bus.url, '--metrics-port', '0'], {
      env: {
        PATH: process.env.PATH,
        JOBFOLD_CLUSTER_ID: CLUSTER_ID,
        JOBFOLD_SQS_ENDPOINT: fakes.sqs.url,
        JOBFOLD_QUEUE_URL: fakes.sqs.queueUrl(QUEUE),
        JOBFOLD_SPOOL_DIR: spoolDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));

    const bus = fakes.bus;
    await eventually(() => expect(bus.eventIds()).toEqual([`${job.metadata.uid}/${job.metadata.resourceVersion}`]), 15_000);
    const port = await eventually(() => {
      const line = output.split('\n').find((l) => l.includes('"msg":"metrics served"'));
      expect(line).toBeDefined();
      return (JSON.parse(line ?? '') as { port: number }).port;
    });
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toContain('forwarder_events_sent_total 1');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('"msg":"forwarder stopped"');
    expect(JSON.parse(await readFile(join(spoolDir, 'known-objects.json'), 'utf8'))).toMatchObject({ objects: [{ kind: 'Job', uid: job.metadata.uid }] });
  }, 30_000);

  it('prints every setting for --help and exits 0', async () => {
    const child = spawn(process.execPath, [MAIN, '--help'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));

    expect(code).toBe(0);
    expect(output).toContain('--queue-url <value>\n      JOBFOLD_QUEUE_URL');
  }, 30_000);
});
