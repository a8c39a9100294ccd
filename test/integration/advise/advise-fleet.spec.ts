import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdviceFleet } from '../../../bench/advise-fleet.ts';
import { adviseCommand } from '../../../cli/client/advise-command.ts';
import { whatIfCommand } from '../../../cli/whatif-command.ts';
import { createLocalClient } from '../../../local/dynamodb-local.ts';
import type { LocalStack } from '../../../local/local-stack.ts';
import type { AdviceView, FamilyView } from '../../../shared/advise/view.ts';
import { startTestStack } from '../local/local-stack-fixture.ts';

// Given the runs of five CronJobs on DynamoDB Local, one of each kind bench/advise-fleet.ts
// records (an exit code that never succeeds on retry, disruptions that pass on retry, a
// leader/worker Job, runs that hang now and then, a quorum Job a FailJob rule would harm), when
// `jobfold advise` runs through the API, then each family gets the advice its kind calls for,
// checked Job by Job, and each proposal's what-if command prints the same figures.

const RUNS = 20;
let stack: LocalStack;
let view: AdviceView;
beforeAll(async () => {
  stack = await startTestStack();
  await seedAdviceFleet(createLocalClient(stack.dynamoDbEndpoint), stack.tableName, 5 * RUNS, RUNS);
  view = JSON.parse(await adviseCommand(['--endpoint', stack.url, '-o', 'json']));
}, 180_000);
afterAll(() => stack.stop());

const family = (prefix: string): FamilyView => {
  const found = view.advice.find((f) => f.family.key.startsWith(`cronjob:${prefix}`));
  if (!found) throw new Error(`no family ${prefix}: ${view.advice.map((f) => f.family.key).join(', ')}`);
  return found;
};

/** The words of a shell command line, single quotes as the shell reads them. */
function words(command: string): string[] {
  return [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replaceAll(`'\\''`, "'") : (m[2] as string)));
}

describe('jobfold advise over five CronJobs on DynamoDB Local', () => {
  it('reads every finished Job once, in five families', () => {
    expect(view).toMatchObject({ jobs: 5 * RUNS, families: 5 });
    for (const f of view.advice) expect(f.jobs.finished).toBe(RUNS);
  });

  it('gives each family the advice its kind calls for', () => {
    expect(family('exit-code').recommended).toMatchObject({ kind: 'fail-on-exit-codes', harmless: true });
    expect(family('leader').recommended).toMatchObject({ kind: 'success-policy', harmless: true });
    expect(family('deadline').recommended?.patch.spec).toMatchObject({ activeDeadlineSeconds: 90 });
    expect(family('disruption').proposals.find((p) => p.kind === 'ignore-disruptions')).toMatchObject({ harmless: true });
    const quorum = family('quorum');
    expect(quorum.recommended).toBeNull();
    expect(quorum.verdict).toContain('every candidate would harm a Job');
    expect(quorum.proposals[0]?.check.harm).toHaveLength(RUNS);
  });

  it('replays every Job exactly: none excluded', () => {
    for (const p of view.advice.flatMap((f) => f.proposals)) {
      expect(p.check).toMatchObject({ jobs: RUNS, replayed: RUNS, notReplayable: [], refused: [] });
    }
  });

  it('prints, for each proposal, a what-if command that gives the same figures', async () => {
    for (const p of view.advice.flatMap((f) => f.proposals)) {
      const [, , , ...argv] = words(p.reproduce); // npx jobfold whatif …
      let out = '';
      const code = await whatIfCommand([...argv, '--json', '--endpoint', stack.url], { out: (t) => (out += t), err: () => {} });
      expect(code, p.reproduce).toBe(0);
      const tally = JSON.parse(out);
      expect({ jobs: tally.jobs, outcomeChanged: tally.outcomeChanged, decidedEarlier: tally.decidedEarlier, decidedLater: tally.decidedLater, podSecondsSaved: tally.podSecondsSaved, notReplayable: tally.notReplayable })
        .toEqual({ jobs: p.check.jobs, outcomeChanged: p.check.outcomeChanged, decidedEarlier: p.check.decidedEarlier, decidedLater: p.check.decidedLater, podSecondsSaved: p.check.podSecondsSaved, notReplayable: 0 });
    }
  }, 120_000);
});
