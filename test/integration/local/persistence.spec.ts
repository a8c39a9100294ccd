import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TraceRecorder } from '../../../local/sample/trace-recorder.ts';
import { servingUrl, startProcess, type StartedProcess } from '../../support/start-process.ts';

// `npm start -- --data DIR`: given a trace fed into DIR, when the stack is stopped mid-trace
// (SIGTERM or SIGKILL) and started again on the same DIR, then every Job ends as in a run that
// was never interrupted, with the same commands (nothing lost, nothing decided twice), and a
// third start neither feeds the trace again nor decides anything new.

const dir = mkdtempSync(join(tmpdir(), 'jobfold-data-'));
const SPEED = ['--speed', '20'];
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Played at 20 times the recorded pace (SPEED): ~6 s of feeding, a success-policy Job (2
 * terminations) at once, a deadline (a timer, waited for before the trace counts as decided),
 * then a Job a second. The kill after the leader's decision still lands ~5 s before the end.
 */
function writeTrace(): string {
  const trace = new TraceRecorder('2026-01-01T00:00:00Z', 'da7a');
  const leader = trace.job('keep-1', 0, 'default', 'leader', {
    completions: 3, parallelism: 3, completionMode: 'Indexed', successPolicy: { rules: [{ succeededIndexes: '0' }] },
  });
  const [first] = [0, 1, 2].map((i) => trace.runPod(leader, 1, i));
  trace.exitPod(first!, 10, 0);
  const deadline = trace.job('keep-1', 2, 'default', 'deadline', { activeDeadlineSeconds: 4 });
  trace.runPod(deadline, 3, undefined);
  for (let i = 0; i < 6; i++) {
    const job = trace.job('keep-2', 20 + 20 * i, 'batch', `step-${i}`, {});
    trace.exitPod(trace.runPod(job, 21 + 20 * i, undefined), 25 + 20 * i, 0);
  }
  const file = join(dir, 'trace.jsonl');
  writeFileSync(file, trace.jsonl());
  return file;
}

interface JobItem { clusterId: string; namespace: string; name: string }

/** Every Job as the API shows it: conditions, counts, commands (without times and log positions), log head. */
async function apiView(url: string): Promise<{ jobs: Record<string, unknown>; heads: Record<string, number> }> {
  const jobs: Record<string, unknown> = {};
  const heads: Record<string, number> = {};
  let cursor: string | undefined;
  do {
    const page = await (await fetch(`${url}/v1/jobs?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).json() as { items: JobItem[]; nextCursor?: string };
    for (const item of page.items) {
      const key = `${item.clusterId}/${item.namespace}/${item.name}`;
      const view = await (await fetch(`${url}/v1/clusters/${item.clusterId}/namespaces/${item.namespace}/jobs/${item.name}`)).json() as {
        status: { conditions: Array<{ type: string; status: string; reason: string }>; succeeded?: number; failed?: number; active?: number };
        commands: Array<Record<string, unknown>>;
        log: { head: number };
      };
      jobs[key] = {
        conditions: view.status.conditions.map(({ type, status, reason }) => `${type}=${status} (${reason})`),
        succeeded: view.status.succeeded, failed: view.status.failed,
        // Sent commands only: a computed, never-sent CreatePod of a Job jobfold does not manage
        // depends on whether the Job or its pod arrived first, as it does in a cluster.
        // Without `observed`: whether the trace's deletion lands before or after the decision is
        // the machine's pace, as it is a cluster's.
        commands: view.commands.filter((c) => c['dispatched'] !== false).map(({ seq: _seq, at: _at, observed: _observed, ...command }) => command),
      };
      heads[key] = view.log.head;
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { jobs, heads };
}

/** Starts on `data` feeding `trace`, waits until the trace is decided, reads the API, stops. */
async function runToQuiet(data: string, trace: string): Promise<{ view: Awaited<ReturnType<typeof apiView>>; run: StartedProcess }> {
  const run = startProcess(['--data', data, '--replay', trace, ...SPEED]);
  const url = await servingUrl(run);
  await run.when(/waiting for events/);
  const view = await apiView(url);
  run.child.kill('SIGTERM');
  expect(await run.exited()).toBe(0);
  return { view, run };
}

describe('npm start --data DIR', () => {
  const trace = writeTrace();
  let reference: Awaited<ReturnType<typeof apiView>>;

  it('decides the trace once when never interrupted (the reference)', async () => {
    ({ view: reference } = await runToQuiet(join(dir, 'reference'), trace));

    expect(Object.keys(reference.jobs)).toHaveLength(8);
    expect(reference.jobs['keep-1/default/deadline']).toMatchObject({ conditions: expect.arrayContaining(['FailureTarget=True (DeadlineExceeded)']) });
    expect((reference.jobs['keep-1/default/leader'] as { commands: unknown[] }).commands).toHaveLength(1);
  }, 180_000);

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`loses nothing and decides nothing twice when stopped mid-trace with ${signal}`, async () => {
      const data = join(dir, signal);
      const first = startProcess(['--data', data, '--replay', trace, ...SPEED]);
      await first.when(/leader: SuccessCriteriaMet=True/);
      expect(first.text()).not.toContain('waiting for events'); // still feeding
      first.child.kill(signal);
      await first.exited();

      const { view: resumed, run: second } = await runToQuiet(data, trace);
      expect(second.text()).toContain('stopped while feeding; feeding it again');
      expect(resumed.jobs).toEqual(reference.jobs);

      const third = startProcess(['--data', data, '--replay', trace, ...SPEED]);
      const url = await servingUrl(third);
      await third.when(/not fed again/);
      await new Promise((resolve) => setTimeout(resolve, 2000)); // the resumed reconciles run
      const again = await apiView(url);
      third.child.kill('SIGTERM');
      expect(await third.exited()).toBe(0);
      expect(third.text()).toMatch(/\d+ unfinished Jobs and JobSets found/);
      expect(again).toEqual(resumed);
    }, 300_000);
  }
});
