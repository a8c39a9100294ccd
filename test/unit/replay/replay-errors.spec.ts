import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inputFile, NAMED_FAILURE, runReplay, STORY_2 } from './run-replay.ts';

const sampleLines = readFileSync(NAMED_FAILURE, 'utf8').trimEnd().split('\n');

describe('jobfold replay with bad input', () => {
  it('names file, line and field of a malformed JSONL line, and exits 1', async () => {
    const podWithoutUid = {
      Source: 'jobfold.cluster.dev-eu-1',
      DetailType: 'Pod Observed',
      Detail: JSON.stringify({ eventId: 'x', observedAt: '2026-01-01T00:00:10Z', object: { metadata: { name: 'p' } } }),
    };
    const file = inputFile('bad.jsonl', [...sampleLines.slice(0, 3), JSON.stringify(podWithoutUid)].join('\n'));
    const { code, out, err } = await runReplay(file);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe(`jobfold replay: ${file}:4: Detail.object.metadata.uid: Invalid input: expected string, received undefined`);
  });

  it('reports every bad line, including lines that are not JSON', async () => {
    const file = inputFile('bad.jsonl', `${sampleLines[0]}\n\nnot json\n{"type":"Tock"}\n`);
    const { code, err } = await runReplay(file);
    expect(code).toBe(1);
    expect(err).toContain(`${file}:3: not valid JSON: `);
    expect(err).toContain(`${file}:4: type: Invalid discriminator value.`);
  });

  it('names the line and field of a scenario that fails the schema', async () => {
    const scenario = JSON.parse(readFileSync(STORY_2, 'utf8'));
    delete scenario.events[3].pod.metadata.uid;
    const text = JSON.stringify(scenario, null, 2);
    const line = text.split('\n').findIndex((l) => l.includes('"name": "mypod-2"')); // 0-based: the line before
    const { code, err } = await runReplay(inputFile('bad.json', text));
    expect(code).toBe(1);
    expect(err).toMatch(new RegExp(`bad\\.json:${line}: events\\[3\\]\\.pod\\.metadata\\.uid: Invalid input`));
  });

  it('names the line where a JSON document breaks', async () => {
    const { code, err } = await runReplay(inputFile('broken.json', '{\n  "job": {,\n}'));
    expect(code).toBe(1);
    expect(err).toMatch(/broken\.json:2: not valid JSON: /);
  });

  it('says so when the file is missing', async () => {
    const { code, err } = await runReplay('samples/no-such-file.jsonl');
    expect(code).toBe(1);
    expect(err).toBe('jobfold replay: samples/no-such-file.jsonl: cannot read: no such file');
  });

  it('rejects a Job whose spec fails validation, as the service does', async () => {
    const job = JSON.parse(JSON.parse(sampleLines[0] as string).Detail);
    job.object.spec.parallelism = -1;
    const entry = { ...JSON.parse(sampleLines[0] as string), Detail: JSON.stringify(job) };
    const { code, out } = await runReplay(inputFile('rejected.jsonl', JSON.stringify(entry)));
    expect(code).toBe(0);
    expect(out).toContain('  Outcome:  Rejected');
    expect(out).toContain('    spec.parallelism: Invalid value: -1: must be greater than or equal to 0');
  });
});

describe('jobfold replay usage errors', () => {
  it('refuses an unknown feature gate with exit code 2', async () => {
    const { code, err } = await runReplay(STORY_2, '--gate', 'JobSuccessPolicy=true');
    expect(code).toBe(2);
    expect(err).toContain('--gate JobSuccessPolicy=true: unknown feature gate JobSuccessPolicy (known: PodFailurePolicyName)');
  });

  it('refuses a gate value other than true or false', async () => {
    expect((await runReplay(STORY_2, '--gate', 'PodFailurePolicyName=yes')).code).toBe(2);
  });

  it('refuses a missing FILE, an unknown option and --at past the end', async () => {
    expect((await runReplay()).err).toContain('missing FILE');
    expect((await runReplay(STORY_2, '--verbose')).err).toContain('unknown option --verbose');
    const past = await runReplay(STORY_2, '--at', '22');
    expect(past).toMatchObject({ code: 2 });
    expect(past.err).toContain('--at 22: the scenario has events 0-21');
  });

  it('documents both JSONL line formats in --help', async () => {
    const { code, out } = await runReplay('--help');
    expect(code).toBe(0);
    expect(out).toContain('"Source":"jobfold.cluster.<clusterId>"');
    expect(out).toContain('{"type":"PodObserved", ..., "pod":{...core/v1 Pod...}}');
  });
});
