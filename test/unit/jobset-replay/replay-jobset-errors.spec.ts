import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inputFile, runReplay } from '../replay/run-replay.ts';
import { EXIT_CODE_2_FIXTURE, EXIT_CODE_3_TRACE } from './jobset-scenarios.ts';

const traceLines = () => readFileSync(EXIT_CODE_3_TRACE, 'utf8').split('\n').filter((line) => line !== '');

/** The sample trace with line `n` (1-based) changed by `edit` on its parsed Detail. */
function editedTrace(n: number, edit: (detail: any) => void): string {
  const lines = traceLines();
  const entry = JSON.parse(lines[n - 1] as string);
  const detail = JSON.parse(entry.Detail);
  edit(detail);
  lines[n - 1] = JSON.stringify({ ...entry, Detail: JSON.stringify(detail) });
  return inputFile('trace.jsonl', `${lines.join('\n')}\n`);
}

describe('jobfold replay of a JobSet trace with problems', () => {
  it('names file, line and field of a value that fails the schema', async () => {
    const file = editedTrace(3, (detail) => (detail.object.spec.parallelism = 'one'));
    const { code, out, err } = await runReplay(file);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe(`jobfold replay: ${file}:3: Detail.object.spec.parallelism: Invalid input: expected number, received string`);
  });

  it('refuses a child Job of another JobSet, naming its owner reference', async () => {
    const file = editedTrace(4, (detail) => (detail.object.metadata.ownerReferences[0].uid = 'other-jobset'));
    const { code, err } = await runReplay(file);
    expect(code).toBe(1);
    expect(err).toBe(
      `jobfold replay: ${file}:4: Detail.object.metadata.ownerReferences: another JobSet (uid other-jobset); this trace is JobSet 4f1d2c3b-9a8e-4d7c-b6a5-0e1f2a3b4c5d`,
    );
  });

  it('reports every bad line at once: invalid JSON, an unknown detail type, a fold observation', async () => {
    const lines = traceLines();
    lines[1] = '{"Source": oops';
    lines[2] = (lines[2] as string).replace('"DetailType":"Job Observed"', '"DetailType":"Job Seen"');
    lines[3] = '{"type":"PodObserved","observedAt":"2026-01-01T00:00:01Z"}';
    const file = inputFile('trace.jsonl', lines.join('\n'));
    const { code, err } = await runReplay(file);
    expect(code).toBe(1);
    expect(err.split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^jobfold replay: ${file}:2: not valid JSON: `)),
      expect.stringMatching(new RegExp(`^${file}:3: DetailType: unknown detail-type "Job Seen"; expected one of `)),
      `${file}:4: type: a JobSet trace takes inbound events only: PutEvents entries ("Source", "DetailType", "Detail") or EventBridge events ("source", "detail-type", "detail")`,
    ]);
  });

  it('exits 2 for --at past the last line', async () => {
    const { code, err } = await runReplay(EXIT_CODE_3_TRACE, '--at', '99');
    expect(code).toBe(2);
    expect(err).toContain('jobfold replay: --at 99: the file has lines 1-22');
  });
});

describe('jobfold replay of a JobSet scenario with problems', () => {
  it('names file, line and path of a field that fails the schema', async () => {
    const scenario = JSON.parse(readFileSync(EXIT_CODE_2_FIXTURE, 'utf8'));
    scenario.events[1].job.status.failed = 'one';
    const text = JSON.stringify(scenario, null, 2);
    const file = inputFile('scenario.json', text);
    const line = text.split('\n').findIndex((l) => l.includes('"failed": "one"')) + 1;
    const { code, err } = await runReplay(file);
    expect(code).toBe(1);
    expect(err).toMatch(new RegExp(`^jobfold replay: ${file}:${line}: events\\[1\\]\\.job\\.status\\.failed: `));
  });

  it.each([
    ['a number', 42, 'Invalid input: expected string, received number'],
    ['empty', '', 'Too small: expected string to have >=1 characters'],
    ['100 KB', 'u'.repeat(100_000), 'Too big: expected string to have <=128 characters'],
    ['a lone surrogate', 'u\uD800', 'holds a lone UTF-16 surrogate'],
  ])('refuses a JobDeleted uid that is %s, naming the event and the field', async (_name, uid, message) => {
    // given the seed-002 scenario with a JobDeleted whose uid no Job Deleted event could carry
    const scenario = JSON.parse(readFileSync(EXIT_CODE_2_FIXTURE, 'utf8'));
    scenario.events.push({ type: 'JobDeleted', at: scenario.events.at(-1).at, name: 'restart-job-example-simulations-0', uid });
    const file = inputFile('deleted.json', JSON.stringify(scenario));

    // when it is replayed
    const { code, err } = await runReplay(file);

    // then it is refused with the field and why
    expect(code).toBe(1);
    expect(err).toBe(`jobfold replay: ${file}:1: events[${scenario.events.length - 1}].uid: ${message}`);
  });

  it('exits 2 for --at past the last event and for a Job fold gate', async () => {
    expect(await runReplay(EXIT_CODE_2_FIXTURE, '--at', '5')).toMatchObject({ code: 2, err: expect.stringContaining('--at 5: the scenario has events 0-4') });
    expect(await runReplay(EXIT_CODE_2_FIXTURE, '--gate', 'PodFailurePolicyName=false')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--gate sets a Job fold gate; a JobSet scenario holds child Job statuses only'),
    });
  });

  it('refuses a scenario that turns on a JobSet feature gate the fold does not implement', async () => {
    const scenario = JSON.parse(readFileSync(EXIT_CODE_2_FIXTURE, 'utf8'));
    scenario.featureGates.RestartJob = true;
    const { code, err } = await runReplay(inputFile('gated.json', JSON.stringify(scenario)));
    expect(code).toBe(1);
    expect(err).toBe('jobfold replay: unsupported JobSet feature gates: RestartJob');
  });
});
