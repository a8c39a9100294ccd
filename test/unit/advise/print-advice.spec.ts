import { describe, expect, it } from 'vitest';
import { adviceView } from '../../../shared/advise/view.ts';
import { adviseOver } from '../../../shared/advise/walk.ts';
import { parseSelection } from '../../../shared/fleet/selection.ts';
import { adviceBlocks, printText } from '../../../cli/print/index.ts';
import { at } from '../../support/builders.ts';
import { cronJobRun, fails, portOver, quorumRun, succeeds, tickAt, type Step } from './families.ts';

// `jobfold advise` as text, through the one text printer (cli/print): given a family with a
// harmless patch and one whose every candidate would harm a Job, when the advice is printed,
// then the patch to apply comes first as YAML with its kubectl command, and each harmed Job is a
// row of the harm table with where the replay diverges.

const printed = async (jobs: Parameters<typeof portOver>[0]): Promise<string> =>
  printText(adviceBlocks(adviceView(await adviseOver(portOver(jobs), {}), parseSelection({}))));

describe('the advice as text', () => {
  it('shows the patch to apply, its YAML and the kubectl command, then every proposal with its check', async () => {
    const threeFailures: Step[] = [...fails('p1', 10, 20, 3), tickAt(30), ...fails('p2', 31, 50, 3), tickAt(70), ...fails('p3', 71, 80, 3)];
    const retried: Step[] = [...fails('p1', 10, 20, 1), tickAt(30), ...succeeds('p2', 31, 60)];
    // Pod time: 3 × (10 + 29) s retried, 2 × (10 + 19 + 9) s failed = 193 s (0.054 h); FailJob
    // at 20 s spares the failed runs' p2 and p3: 2 × 28 s (0.016 h).
    const text = await printed([0, 1, 2, 3, 4].map((run) => cronJobRun('etl', run, { backoffLimit: 2 }, run < 3 ? retried : threeFailures)));

    expect(text.split('\n').slice(0, 10)).toEqual([
      '5 finished Jobs in 1 family; 3 proposals checked by exact what-if; 1 family has a patch to apply.',
      '',
      'Family:     cronjob:etl',
      'Namespace:  default',
      'Cluster:    c1',
      'Jobs:       5 finished: 3 succeeded, 2 failed; 0.054 pod-hours',
      'Apply:      podFailurePolicy: FailJob on exit code 3 (rule ExitCode3)',
      'Saves:      0.016 pod-hours on the record; harms no Job',
      'Patch:',
      '  spec:',
    ]);
    expect(text).toContain([
      '  spec:',
      '    podFailurePolicy:',
      '      rules:',
      '      - name: ExitCode3',
      '        action: FailJob',
    ].join('\n'));
    expect(text).toContain(`To the CronJob's Job template:\n  kubectl patch cronjob etl -n default --type merge -p '{"spec":{"jobTemplate":{"spec":{"podFailurePolicy":`);
    expect(text).toContain([
      'Proposals (harmless first, by pod-hours saved):',
      '  1. podFailurePolicy: FailJob on exit code 3 (rule ExitCode3):',
      '    Mined:',
      '      exit code 3 (container main) failed 6 pod(s) in 2 Job(s) and no retry after it ever succeeded; e.g. c1/default/etl-28000003 pod p1, c1/default/etl-28000004 pod p1',
      '    Checked:    5 of 5 Jobs replayed exactly: 2 decided earlier, 0 later, 2 outcome(s) changed, 3 unchanged',
      '    Saves:      0.016 pod-hours; no Job harmed',
    ].join('\n'));
    expect(text).toContain(`    Reproduce:  npx jobfold whatif --fleet -n default --family cronjob:etl --finished --patch '{"spec":{"podFailurePolicy":`);
  });

  it('marks a harmful proposal, says why nothing is proposed, and lists each harmed Job with its divergence', async () => {
    const text = await printed([0, 1].map(quorumRun));

    expect(text).toContain('Apply:      <none>\nWhy:        every candidate would harm a Job (listed below): nothing is proposed\n');
    expect(text).toContain('  1. HARMFUL (2 Jobs) podFailurePolicy: FailJob on exit code 7 (rule ExitCode7):');
    const harm = text.split('\n').filter((l) => l.startsWith('      '));
    const header = harm.findIndex((l) => /^ {6}Job +Harm +Recorded +What-if +Diverges$/.test(l));
    expect(header).toBeGreaterThan(-1);
    expect(harm[header + 1]).toMatch(/^ {6}-{3} +-{4} +-{8} +-{7} +-{8}$/);
    for (const [i, name] of ['quorum-28000000', 'quorum-28000001'].entries()) {
      const row = harm[header + 2 + i] ?? '';
      expect(row).toContain(`c1/default/${name}  a success would fail  Succeeded (SuccessPolicy) at ${at(60)}  Failed (PodFailurePolicy_ExitCode7) at ${at(20)}`);
      expect(row).toMatch(new RegExp(`event \\d+ \\(${at(20).replace(/[.]/g, '\\.')}\\): recorded decided nothing; what-if decided .*FailureTarget=True \\(PodFailurePolicy_ExitCode7\\)`));
    }
  });
});
