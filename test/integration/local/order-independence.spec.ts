import { describe, expect, it } from 'vitest';
import { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { TraceRecorder, type JobRef, type RecordedEntry } from '../../../local/sample/trace-recorder.ts';
import { getJson, useTestStack } from './local-stack-fixture.ts';

// Issue 21's reproduction, through the local stack `npm start` runs (its bus, ingest stream,
// writer and query API on DynamoDB Local): eight nightly Jobs (backoffLimit 6, one pod at a
// time, every pod fails with exit code 3: Failed by BackoffLimitExceeded at the 7th failure)
// and four daily Jobs (the first pod fails, the retry succeeds: Complete), sent as a forwarder
// sends them, one PutEvents entry per call, each awaited. The same fleet goes to two clusters:
// to one in the cluster's order, to the other shuffled (nothing to keep in order: these Jobs
// are not jobfold's to run, so no event answers a command of jobfold's). Every Job ends as the
// cluster's controller ends it, with the same status in both.

const NIGHTLY = 8;
const DAILY = 4;

const local = useTestStack();

/** The fleet as one cluster's forwarder records it (times in seconds after an hour ago). */
function fleet(cluster: string, uidSpace: string): { entries: RecordedEntry[]; jobs: JobRef[] } {
  const trace = new TraceRecorder(new Date(Date.now() - 3_600_000).toISOString(), uidSpace);
  const jobs: JobRef[] = [];
  for (let n = 0; n < NIGHTLY; n++) {
    const job = trace.job(cluster, 0, 'etl', `nightly-${n}`, { backoffLimit: 6, parallelism: 1, completions: 1 });
    for (let k = 0, at = 1; k < 7; k++, at += 61) trace.exitPod(trace.runPod(job, at, undefined), at + 60, 3);
    jobs.push(job);
  }
  for (let n = 0; n < DAILY; n++) {
    const job = trace.job(cluster, 0, 'reports', `daily-${n}`, { parallelism: 1, completions: 1 });
    trace.exitPod(trace.runPod(job, 1, undefined), 61, 1);
    trace.exitPod(trace.runPod(job, 62, undefined), 122, 0);
    jobs.push(job);
  }
  const inOrder = trace.entries.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i).map(({ e }) => e);
  return { entries: inOrder, jobs };
}

/** A fixed shuffle (Fisher-Yates over a linear congruential sequence): the same order every run. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const result = [...items];
  let state = seed;
  for (let i = result.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [result[i], result[j]] = [result[j] as T, result[i] as T];
  }
  return result;
}

async function send(entries: readonly RecordedEntry[]): Promise<void> {
  for (const { Source, DetailType, Detail } of entries) {
    const output = await local.client.send(new PutEventsCommand({ Entries: [{ Source, DetailType, Detail }] }));
    expect(output.FailedEntryCount).toBe(0);
  }
}

interface Ended {
  readonly conditions: string[];
  readonly succeeded: number;
  readonly failed: number;
  readonly active: number;
  readonly terminating: number;
}

async function ended(job: JobRef): Promise<Ended> {
  const { status, body } = await getJson(`${local.stack.url}/v1/clusters/${job.cluster}/namespaces/${job.namespace}/jobs/${job.name}`);
  expect(status, JSON.stringify(body)).toBe(200);
  const view = (body as { status: { conditions: Array<{ type: string; status: string; reason: string }>; succeeded: number; failed: number; active: number; terminating: number } }).status;
  return {
    conditions: view.conditions.map((c) => `${c.type}=${c.status}:${c.reason}`),
    succeeded: view.succeeded,
    failed: view.failed,
    active: view.active,
    terminating: view.terminating,
  };
}

const FAILED: Ended = { conditions: ['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded'], succeeded: 0, failed: 7, active: 0, terminating: 0 };
const COMPLETE: Ended = { conditions: ['SuccessCriteriaMet=True:CompletionsReached', 'Complete=True:CompletionsReached'], succeeded: 1, failed: 1, active: 0, terminating: 0 };

describe('a fleet fed in the cluster\'s order and shuffled, through the local bus', () => {
  it('ends every Job as the cluster does, with the same status either way', async () => {
    const ordered = fleet('in-order', '0021');
    const reordered = fleet('shuffled', '0121');
    await send(ordered.entries);
    await send(shuffled(reordered.entries, 21));
    await local.stack.whenQuiet(0);

    const expected = ordered.jobs.map((job) => (job.name.startsWith('nightly') ? FAILED : COMPLETE));
    const inOrder = await Promise.all(ordered.jobs.map(ended));
    const outOfOrder = await Promise.all(reordered.jobs.map(ended));
    expect(inOrder).toEqual(expected);
    expect(outOfOrder).toEqual(expected);
  }, 240_000);
});
