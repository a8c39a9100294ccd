import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';

// The order-independence properties (test/property/{job,jobset}/*-orders.property.spec.ts): each
// case (a conformance scenario, a generated history) is delivered in random causal orders drawn
// from a fixed seed, and must end as the cluster's own order does. A `*.known.json` file beside
// the spec holds a floor for each case that does not yet do so in every order: how many of its
// orders must still end right, and what kind of divergence its first wrong order showed. A case
// not listed must end right in every order. `JOBFOLD_WRITE_KNOWN=1` rewrites the file from a run
// (after a fix, to ratchet it up; after a change that lowers one, only when the change is right,
// said in the commit).

export interface Known<Divergence extends string = string> {
  readonly matches: number;
  readonly divergence: Divergence;
}

/** One case measured: how many of its orders ended as in order, and the first that did not. */
export interface Measured<Divergence extends string = string> {
  readonly id: string;
  readonly matches: number;
  readonly firstWrong?: { readonly order: readonly number[]; readonly got: unknown; readonly want: unknown; readonly divergence: Divergence };
}

export interface OrdersToMeasure<Outcome, Divergence extends string> {
  /** How many events are delivered. */
  readonly count: number;
  readonly orders: number;
  readonly seed: number;
  /** The outcome of the cluster's own order. */
  readonly want: Outcome;
  /** Delivers the events in the order `keys` rank them. */
  deliverIn(keys: readonly number[]): { readonly order: readonly number[]; readonly got: Outcome };
  divergence(got: Outcome, want: Outcome): Divergence;
}

/** The ranks of `orders` random delivery orders of `count` events, drawn from `seed` (ties: the cluster's order). */
export const deliveryKeys = (count: number, { orders, seed }: { readonly orders: number; readonly seed: number }): number[][] =>
  fc.sample(fc.array(fc.nat({ max: 1_000_000 }), { minLength: count, maxLength: count }), { seed, numRuns: orders });

/** Delivers one case in `orders` random orders and counts those that end as `want`. */
export function measureOrders<Outcome, Divergence extends string>(id: string, m: OrdersToMeasure<Outcome, Divergence>): Measured<Divergence> {
  let matches = 0;
  let firstWrong: Measured<Divergence>['firstWrong'];
  for (const keys of deliveryKeys(m.count, m)) {
    const { order, got } = m.deliverIn(keys);
    if (isDeepStrictEqual(got, m.want)) matches += 1;
    else firstWrong ??= { order, got, want: m.want, divergence: m.divergence(got, m.want) };
  }
  return { id, matches, ...(firstWrong ? { firstWrong } : {}) };
}

/**
 * The property's tests: one per case, held to its floor in `knownFile`; the file lists only
 * cases that exist; after all, the figures (deliveries that end as in order, cases that do in
 * every order) are printed and, under JOBFOLD_WRITE_KNOWN=1, the floors of this run written.
 */
export function describeOrders<Case extends { readonly id: string }>(
  what: string,
  cases: readonly Case[],
  orders: number,
  knownFile: URL,
  measure: (c: Case) => Measured,
  /** Prints the figures per group as well (e.g. Jobs jobfold runs, and the others). */
  groupOf?: (c: Case) => string,
): void {
  const known = JSON.parse(readFileSync(knownFile, 'utf8')) as Record<string, Known>;
  const measured: Measured[] = [];
  describe(`every ${what} in ${orders} random causal delivery orders`, () => {
    it.each(cases)('$id', (c) => {
      const result = measure(c);
      measured.push(result);
      const floor = known[c.id]?.matches ?? orders;
      expect(result.matches, `${c.id}: ${result.matches}/${orders} orders end as the cluster's order does (at least ${floor} expected); first wrong order ${JSON.stringify(result.firstWrong)}`).toBeGreaterThanOrEqual(floor);
    });

    it('lists only existing cases as known divergences', () => {
      const ids = new Set(cases.map((c) => c.id));
      expect(Object.keys(known).filter((id) => !ids.has(id))).toEqual([]);
    });

    afterAll(() => {
      if (measured.length < cases.length) return;
      const matches = measured.reduce((sum, m) => sum + m.matches, 0);
      const converged = measured.filter((m) => m.matches === orders).length;
      console.log(`order independence (${what}): ${measured.length} × ${orders} orders: ${matches}/${measured.length * orders} end as in order; ${converged} in every order${groupOf ? groupFigures(cases, measured, orders, groupOf) : ''}`);
      if (process.env['JOBFOLD_WRITE_KNOWN'] !== '1') return;
      const table = Object.fromEntries(measured.filter((m) => m.firstWrong).map((m) => [m.id, { matches: m.matches, divergence: m.firstWrong?.divergence }]));
      writeFileSync(knownFile, `${JSON.stringify(table, null, 2)}\n`);
    });
  });
}

/** The figures of each group of cases, for the summary line: `; <group>: matches/deliveries (in every order)`. */
function groupFigures<Case extends { readonly id: string }>(cases: readonly Case[], measured: readonly Measured[], orders: number, groupOf: (c: Case) => string): string {
  const groups = new Map<string, { matches: number; cases: number; converged: number }>();
  const byId = new Map(measured.map((m) => [m.id, m]));
  for (const c of cases) {
    const m = byId.get(c.id);
    if (m === undefined) continue;
    const g = groups.get(groupOf(c)) ?? { matches: 0, cases: 0, converged: 0 };
    groups.set(groupOf(c), { matches: g.matches + m.matches, cases: g.cases + 1, converged: g.converged + (m.matches === orders ? 1 : 0) });
  }
  return [...groups].map(([name, g]) => `; ${name}: ${g.matches}/${g.cases * orders} (${g.converged} in every order)`).join('');
}

/**
 * Issue 21's safety for a closed-loop population (test/property/{job,jobset}/managed-orders):
 * one test per case, held to a ceiling in `knownFile` (the unsafe commands its deliveries send
 * at most, lowered after a fix with JOBFOLD_WRITE_KNOWN=1, as the order floors are raised); the
 * file lists only cases that exist; after all, the figures are printed and, under
 * JOBFOLD_WRITE_KNOWN=1, the ceilings of this run written.
 */
export function describeSafety<Case extends { readonly id: string }>(
  what: string,
  rule: string,
  cases: readonly Case[],
  orders: number,
  knownFile: URL,
  unsafeCommands: (c: Case) => readonly string[],
): void {
  const known = JSON.parse(readFileSync(knownFile, 'utf8')) as Record<string, number>;
  const found = new Map<string, number>();
  describe(`${what} in random deliveries`, () => {
    it.each(cases)(`$id ${rule}`, (c) => {
      const unsafe = unsafeCommands(c);
      found.set(c.id, unsafe.length);
      expect(unsafe.length, `${c.id}: ${JSON.stringify(unsafe)}`).toBeLessThanOrEqual(known[c.id] ?? 0);
    });

    it('lists only existing cases as known unsafe', () => {
      const ids = new Set(cases.map((c) => c.id));
      expect(Object.keys(known).filter((id) => !ids.has(id))).toEqual([]);
    });

    afterAll(() => {
      if (found.size < cases.length) return;
      const unsafe = [...found.values()];
      console.log(`safety (${what}): ${unsafe.reduce((a, b) => a + b, 0)} unsafe commands in ${unsafe.filter((n) => n > 0).length} of ${cases.length} histories × ${orders} deliveries`);
      if (process.env['JOBFOLD_WRITE_KNOWN'] !== '1') return;
      writeFileSync(knownFile, `${JSON.stringify(Object.fromEntries([...found].filter(([, n]) => n > 0)), null, 2)}\n`);
    });
  });
}
