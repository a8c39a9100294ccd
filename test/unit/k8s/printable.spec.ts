import { describe, expect, it } from 'vitest';
import { explain } from '../../../cli/print/index.ts';
import type { Explanation } from '../../../shared/job/index.ts';
import type { JobSetExplanation } from '../../../shared/jobset/index.ts';
import { hasControlCharacters, printable, printableLines } from '../../../shared/k8s/printable.ts';

const HOSTILE = 'a\u0000b\u001b[31mred\u007f\u0085\u202eevil\r\nnext';

describe('printable: what a cluster sent, shown and never acted on by a terminal', () => {
  it('escapes C0, DEL, C1, bidi controls and line breaks', () => {
    expect(printable(HOSTILE)).toBe('a\\x00b\\x1b[31mred\\x7f\\x85\\u202eevil\\r\\nnext');
    expect(hasControlCharacters(printable(HOSTILE))).toBe(false);
  });

  it('leaves ordinary text, Unicode and backslashes as they are', () => {
    const text = 'Job "ns/p-0" failed: exit 137 (OOMKilled) – ünïcode ✓ C:\\path';
    expect(printable(text)).toBe(text);
  });

  it('keeps the line breaks of multi-line output and escapes inside each line', () => {
    expect(printableLines(`one\u001b[2J\ntwo\ttabs`)).toBe('one\\x1b[2J\ntwo\\ttabs');
  });
});

describe('explanations escape control characters in names and messages', () => {
  it('a Job explanation', () => {
    const explanation = {
      kind: 'Job',
      outcome: 'Failed',
      summary: `pod ${HOSTILE} failed`,
      conditions: [{ sentence: `message ${HOSTILE}` }],
      terminatedPods: [],
      rejection: [`metadata.labels: ${HOSTILE}`],
    } as unknown as Explanation;
    const text = explain(explanation);
    expect(hasControlCharacters(text.replace(/\n/g, ''))).toBe(false);
    expect(text).toContain('pod a\\x00b\\x1b[31mred');
    expect(text.split('\n')).toHaveLength(6);
  });

  it('a JobSet explanation', () => {
    const explanation = {
      kind: 'JobSet',
      outcome: 'Failed',
      summary: `child ${HOSTILE}`,
      restarts: 0,
      restartsCountTowardsMax: 0,
      conditions: [],
      events: [],
      rejection: [HOSTILE],
      waiting: [{ sentence: `workers: waiting for ${HOSTILE}` }],
    } as unknown as JobSetExplanation;
    const text = explain(explanation);
    expect(hasControlCharacters(text.replace(/\n/g, ''))).toBe(false);
  });
});
