import { describe, expect, it } from 'vitest';
import { sinceToTime, whatIfCommand } from '../../../cli/whatif-command.ts';

// Given a sample FILE, when `jobfold whatif` runs, then it prints the report (JSON or side by
// side) or names what is wrong with the patch or the command line.

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await whatIfCommand(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('jobfold whatif FILE', () => {
  it('prints the JSON report: without its FailJob rule, the named failure is unknown past event 9', async () => {
    const { code, out } = await run('samples/named-failure.jsonl', '--patch', '{"spec":{"podFailurePolicy":null}}', '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.recorded).toMatchObject({ outcome: 'Failed', condition: 'FailureTarget', reason: 'PodFailurePolicy_ExitCode2', atEvent: 9, podsTerminated: 4 });
    expect(report.whatIf).toMatchObject({ outcome: 'Running', exact: false });
    expect(report.divergesAtEvent).toBe(9);
    expect(report.podsKeptUnknown).toBe(4);
  });

  it('prints the two sides next to each other for a person', async () => {
    const { code, out } = await run('samples/story-2-leader.json', '--patch', '{"spec":{"parallelism":10}}');
    expect(code).toBe(0);
    expect(out).toMatch(/outcome\s+Succeeded\s+Succeeded/);
    expect(out).toContain('No divergence');
  });

  it('refuses an invalid patched spec with upstream\'s message, exit 1', async () => {
    const { code, err } = await run('samples/story-2-leader.json', '--patch', '{"spec":{"backoffLimit":-1}}');
    expect(code).toBe(1);
    expect(err).toContain('spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0');
  });

  it('names usage errors, exit 2', async () => {
    expect((await run('samples/story-2-leader.json')).err).toContain('missing --patch');
    expect((await run('samples/story-2-leader.json', '--patch', '{nope')).err).toContain('--patch: not valid JSON');
    expect((await run('--fleet', 'x', '--patch', '{}')).code).toBe(2);
    expect((await run('samples/story-2-leader.json', '--since', '7d', '--patch', '{}')).err).toContain('go with --fleet');
  });

  it('reports a service that cannot be reached, exit 3', async () => {
    const { code, err } = await run('c1/default/foobar', '--patch', '{}', '--endpoint', 'http://127.0.0.1:9');
    expect(code).toBe(3);
    expect(err).toContain('cannot reach http://127.0.0.1:9');
  });

  it('turns --since 7d into the time seven days before now', () => {
    expect(sinceToTime('7d', new Date('2026-01-08T00:00:00Z'))).toBe('2026-01-01T00:00:00.000Z');
    expect(sinceToTime('2026-01-01T00:00:00Z', new Date())).toBe('2026-01-01T00:00:00.000Z');
  });
});

describe('jobfold whatif on a JobSet FILE', () => {
  it('replays a JobSet trace through the service and refolds it under maxRestarts 0', async () => {
    const { code, out } = await run('samples/jobset-exit-code-3.jsonl', '--patch', '{"spec":{"failurePolicy":{"maxRestarts":0}}}', '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.kind).toBe('JobSet');
    expect(report.recorded).toMatchObject({ outcome: 'Running', restarts: 1 });
    expect(report.whatIf).toMatchObject({ outcome: 'Failed', reason: 'ReachedMaxRestarts', exact: true });
  });

  it('prints why each side decided what it did, side by side', async () => {
    const { code, out } = await run('samples/jobset-exit-code-3.jsonl', '--patch', '{"spec":{"failurePolicy":{"maxRestarts":0}}}');
    expect(code).toBe(0);
    expect(out).toMatch(/restarts\s+1\s+0/);
    expect(out).toContain('recorded decided: restart #1 (RestartJobSet): failurePolicyRule1 (rule 1, RestartJobSet)');
    expect(out).toContain('what-if decided:  fail the JobSet (ReachedMaxRestarts)');
  });

  it('refuses an invalid patched JobSet with upstream\'s message, exit 1', async () => {
    const { code, err } = await run('samples/jobset-exit-code-2.jsonl', '--patch', '{"spec":{"failurePolicy":{"rules":[{"name":"x","action":"Bogus"}]}}}');
    expect(code).toBe(1);
    expect(err).toContain('spec.failurePolicy.rules[0].action: Unsupported value: "Bogus"');
  });
});
