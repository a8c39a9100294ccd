import { describe, expect, it } from 'vitest';
import { field, line, list, printText, section, table } from '../../../cli/print/index.ts';

describe('the text printer', () => {
  it('aligns the fields of one list to its longest label, as kubectl describe does', () => {
    expect(printText([field('Outcome', 'Failed'), field('Restarts', 1), line('free text')])).toBe(
      'Outcome:   Failed\nRestarts:  1\nfree text',
    );
  });

  it('gives a document its least label width, and wider when a label needs it', () => {
    expect(printText({ blocks: [field('Name', 'a')], labelWidth: 20 })).toBe('Name:               a');
    expect(printText({ blocks: [field('Name', 'a'), field('Active Deadline Seconds', '1s')], labelWidth: 20 })).toBe(
      'Name:                     a\nActive Deadline Seconds:  1s',
    );
  });

  it('indents a section by two and aligns its fields on their own', () => {
    expect(printText([field('Name', 'x'), section('Explanation', [field('Outcome', 'Failed'), line('why')])])).toBe(
      'Name:  x\nExplanation:\n  Outcome:  Failed\n  why',
    );
  });

  it('draws a describe table under its title, and an empty one as a field aligned with the others', () => {
    const conditions = table('Conditions', ['Type', 'Status'], [['Complete', 'True']]);
    expect(printText([field('Uid', 'u'), conditions, table('Commands', ['At'], [])])).toBe(
      'Uid:       u\nConditions:\n  Type      Status\n  ----      ------\n  Complete  True\nCommands:  <none>',
    );
  });

  it('lists as kubectl get does: three spaces apart, no rule', () => {
    expect(printText([list(['NAME', 'AGE'], [['a', '5s']])])).toBe('NAME   AGE\na      5s');
  });

  it('escapes control characters before measuring, so a hostile name moves no column', () => {
    const text = printText([list(['NAME', 'REASON'], [['evil\u001b[31m', 'r\nz'], ['ok', 'x']])]);
    expect(text).toBe('NAME           REASON\nevil\\x1b[31m   r\\nz\nok             x');
    expect(printText([field('Name\u0007', 'a\u202eb')])).toBe('Name\\x07:  a\\u202eb');
  });
});
