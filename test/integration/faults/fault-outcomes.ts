// The fault suite's bookkeeping (issue 24): every case ends in one outcome, and the suite prints
// one line per class of fault with the count of each. The first two are what a service should
// do; the last five must stay 0.

export const OUTCOMES = ['refused with reason', 'handled', 'crash', 'wrong write', 'lost', 'wedged', 'duplicated'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const BAD_OUTCOMES: readonly Outcome[] = ['crash', 'wrong write', 'lost', 'wedged', 'duplicated'];

export interface FaultCase {
  /** The class of fault (one line of the summary). */
  readonly fault: string;
  readonly name: string;
  readonly outcome: Outcome;
  /** What was seen: the status and message, the counts, the reason. */
  readonly detail: string;
}

/** The size of the process-killing classes: small in CI, `JOBFOLD_FAULTS=full` for the issue's sizes. */
export const FULL_SIZE = process.env['JOBFOLD_FAULTS'] === 'full';

/** The summary table, one row per fault class, a column per outcome, and the totals. */
export function summaryTable(cases: readonly FaultCase[]): string {
  const classes = [...new Set(cases.map((c) => c.fault))];
  const header = ['fault', ...OUTCOMES, 'cases'];
  const rows = classes.map((fault) => {
    const of = cases.filter((c) => c.fault === fault);
    return [fault, ...OUTCOMES.map((o) => String(of.filter((c) => c.outcome === o).length)), String(of.length)];
  });
  rows.push(['all', ...OUTCOMES.map((o) => String(cases.filter((c) => c.outcome === o).length)), String(cases.length)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** Cases whose outcome is one of the bad ones, as lines (for the assertion's message). */
export const badCases = (cases: readonly FaultCase[]): string[] =>
  cases.filter((c) => BAD_OUTCOMES.includes(c.outcome)).map((c) => `${c.fault}: ${c.name}: ${c.outcome}: ${c.detail}`);

/** A deterministic random sequence (mulberry32), so a run's kill times can be replayed from its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
