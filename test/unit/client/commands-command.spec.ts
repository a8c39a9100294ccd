import { beforeAll, describe, expect, it } from 'vitest';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { UsageError } from '../../../cli/client/client-options.ts';
import { commandsCommand, type PageReader } from '../../../cli/client/commands-command.ts';
import { describeJobView } from '../../../cli/client/describe-command.ts';
import { explainStoredJob } from '../../../functions/query/job-explanation.ts';
import { storedJobView } from '../../../functions/query/stored-job-view.ts';
import { buildJobSetFleet, type JobSetFleet } from '../query/support/jobset-fleet.ts';
import { managedTrace, play, trainTrace } from '../query/support/command-jobs.ts';
import { jobPath, jobSetPath, queryClient, TEST_CURSOR_KEY, type Get } from '../query/support/query-client.ts';
import { aService, type Service } from '../query/support/service-fleet.ts';

// `jobfold commands job|jobset NAME` follows every page of `…/commands` and prints one line per
// command published (each pod of a termination), whatever the page size; `jobfold describe`
// says when its commands start after the first log position and how to list the earlier ones.

let service: Service;
let get: Get;
let train: StreamId;
let jobSets: JobSetFleet;
const requests: Record<string, string | undefined>[] = [];

beforeAll(async () => {
  service = aService(new InMemoryEventStore());
  train = await play(service, trainTrace());
  await play(service, managedTrace());
  jobSets = await buildJobSetFleet(service);
  get = queryClient(service);
});

/** The API, as the CLI's client reads it: the body of a 200, else a failure naming the status. */
const reader = (path: string): PageReader => async (query) => {
  requests.push(query);
  const defined = Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const { status, body } = await get(path, defined);
  if (status !== 200) throw new Error(`${status}: ${JSON.stringify(body)}`);
  return body;
};

async function run(argv: string[], path: string): Promise<string> {
  let out = '';
  await commandsCommand(argv, (text) => void (out += text), reader(path));
  return out;
}

describe('jobfold commands job NAME', () => {
  const trainPath = jobPath('c1', 'ml', 'train', '/commands');

  it('prints one line per pod terminated, the same whatever the page size, following every page', async () => {
    requests.length = 0;
    const small = await run(['job', 'train', '--cluster', 'c1', '-n', 'ml', '--page-size', '4'], trainPath);
    expect(requests.length).toBeGreaterThanOrEqual(8);
    expect(requests.slice(1).every((q) => typeof q['after'] === 'string')).toBe(true);
    const whole = await run(['job', 'train', '--cluster', 'c1', '-n', 'ml'], trainPath);
    expect(small).toBe(whole);
    const lines = whole.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SEQ {3,}DECIDED {3,}COMMAND {3,}DELIVERY {3,}TARGET {3,}WHY$/);
    const terminations = lines.filter((line) => / TerminatePod /.test(line));
    expect(terminations).toHaveLength(30);
    expect(new Set(terminations.map((line) => /train-\S+ \(index (\d+)\)/.exec(line)?.[1])).size).toBe(30);
    expect(terminations[0]).toMatch(/queued {3,}\S+ \(index \d+\) {3,}JobFinishing: /);
  });

  it('prints creations, status writes and finalizer removals of a Job jobfold manages', async () => {
    const text = await run(['job', 'managed', '--cluster', 'c1', '-n', 'ml'], jobPath('c1', 'ml', 'managed', '/commands'));
    expect(text).toMatch(/ CreatePod {3,}queued {3,}2 pods\n/);
    expect(text).toMatch(/ UpdateJobStatus {3,}queued {3,}status {3,}[0-9a-f]{12}/);
    expect(text).toMatch(/ RemovePodFinalizer {3,}queued {3,}\S+ {3,}remove the tracking finalizer/);
  });

  it('gives scripts one item per decision with all its pods, however the pages split it', async () => {
    const json = JSON.parse(await run(['job', 'train', '--cluster', 'c1', '-n', 'ml', '--page-size', '7', '-o', 'json'], trainPath));
    const terminations = json.items.filter((i: { type: string }) => i.type === 'TerminatePod');
    expect(terminations).toHaveLength(1);
    expect(terminations[0].pods).toHaveLength(30);
    expect(terminations[0]).not.toHaveProperty('podsFrom');
  });

  it.each(['0', '5001', 'ten', '1.5'])('refuses --page-size %s with a usage error', async (size) => {
    await expect(run(['job', 'train', '--cluster', 'c1', '--page-size', size], trainPath)).rejects.toThrow(UsageError);
  });
});

describe('jobfold commands jobset NAME', () => {
  it('prints each child Job command with its command id', async () => {
    const path = jobSetPath(jobSets.failed.clusterId, jobSets.failed.namespace, 'restart-job-example', '/commands');
    const text = await run(['jobset', 'restart-job-example', '--cluster', jobSets.failed.clusterId, '--page-size', '1'], path);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SEQ {3,}DECIDED {3,}COMMAND {3,}JOB {3,}COMMAND ID$/);
    expect(lines.slice(1).every((line) => /^#\d+ {3,}\S+ {3,}(CreateJob|DeleteJob|SuspendJob|ResumeJob) {3,}\S+ {3,}\S+$/.test(line))).toBe(true);
    expect(lines.length).toBeGreaterThan(4);
  });
});

describe('jobfold describe job, when the view lists the commands of its last entries only', () => {
  it('says from which log position, and how to list every command', async () => {
    const summary = (await service.store.findJob({ kind: 'Job', clusterId: 'c1', namespace: 'ml', name: 'train' }))!;
    const deps = { ...service, cursorKey: TEST_CURSOR_KEY };
    const explanation = await explainStoredJob(deps, train, { after: 0, limit: 500 });
    const window = await storedJobView(deps, summary, train, 10);
    expect(window.commandsFrom).toBeGreaterThan(1);
    expect(describeJobView(window, explanation as never)).toContain(
      `(only those decided at log position #${window.commandsFrom} or later are shown; for every command: jobfold commands job train --cluster c1 -n ml --uid ${train.uid})`,
    );
    const whole = await storedJobView(deps, summary, train);
    expect(whole.commandsFrom).toBe(1);
    expect(describeJobView(whole, explanation as never)).not.toContain('jobfold commands');
  });
});

describe('jobfold describe job, for a termination of 30 pods', () => {
  it('names the first 12 and counts the rest, which `jobfold commands` lists one by one', async () => {
    const summary = (await service.store.findJob({ kind: 'Job', clusterId: 'c1', namespace: 'ml', name: 'train' }))!;
    const deps = { ...service, cursorKey: TEST_CURSOR_KEY };
    const text = describeJobView(await storedJobView(deps, summary, train), await explainStoredJob(deps, train, { after: 0, limit: 500 }) as never);
    const line = text.split('\n').find((l) => / TerminatePod /.test(l))!;
    expect(line).toMatch(/SuccessPolicy: (train-\S+, ){11}train-\S+, … 18 more$/);
  });
});
