import { describe, expect, it } from 'vitest';
import { printText, verifyReport } from '../../../cli/print/index.ts';

const audit = { job: { kind: 'Job' as const, clusterId: 'c1', namespace: 'default', name: 'train', uid: 'u-1' } };

describe('jobfold verify, printed', () => {
  it('says the record holds when nothing was found', () => {
    expect(printText(verifyReport(audit, { entries: 12, chainHead: 'ab12', findings: [] }))).toBe(
      'c1/default/train (uid u-1): 12 entries, chain head ab12\nverified: the chain holds and the fold reproduces every decision',
    );
  });

  it('names each finding on its own line, escaping what came from a cluster', () => {
    const text = printText(verifyReport(audit, {
      entries: 3,
      chainHead: null,
      findings: [{ kind: 'changed', seq: 2, eventId: 'evil\u001b[2J' }, { kind: 'removed', seq: 3 }],
    }));
    expect(text.split('\n')).toEqual([
      'c1/default/train (uid u-1): 3 entries, chain head -',
      '  changed: entry 2 (evil\\x1b[2J) was changed: its content no longer matches its hash',
      '  removed: entry 3 was removed: the log has no entry at that position',
    ]);
  });
});
