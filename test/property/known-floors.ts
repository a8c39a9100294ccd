import { readFileSync, writeFileSync } from 'node:fs';

// The floors of the order-independence properties (test/property/{job,jobset}/corpus-orders):
// for each conformance scenario that does not yet end the same in every random delivery order,
// how many of its orders must still end as the cluster's own order does, and what kind of
// divergence its first wrong order showed. A scenario not listed must end right in every order.
// `JOBFOLD_WRITE_KNOWN=1` rewrites the file from a run (after a fix, to ratchet it up; after a
// change that lowers one, only when the change is right, said in the commit).

export interface Known<Divergence extends string = string> {
  readonly matches: number;
  readonly divergence: Divergence;
}

/** One scenario measured: how many of its orders ended as in order, and the first that did not. */
export interface Measured<Divergence extends string = string> {
  readonly id: string;
  readonly matches: number;
  readonly firstWrong?: { readonly order: readonly number[]; readonly got: unknown; readonly want: unknown; readonly divergence: Divergence };
}

export function readKnown<Divergence extends string>(file: URL): Record<string, Known<Divergence>> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, Known<Divergence>>;
}

/**
 * Prints the property's figures (deliveries that end as in order, scenarios that do in every
 * order) and, under JOBFOLD_WRITE_KNOWN=1, writes the floors of this run.
 */
export function reportOrders(what: string, measured: readonly Measured[], orders: number, file: URL): void {
  const matches = measured.reduce((sum, m) => sum + m.matches, 0);
  const converged = measured.filter((m) => m.matches === orders).length;
  console.log(`order independence: ${measured.length} ${what} scenarios × ${orders} orders: ${matches}/${measured.length * orders} end as in order; ${converged} scenarios in every order`);
  if (process.env['JOBFOLD_WRITE_KNOWN'] !== '1') return;
  const table = Object.fromEntries(
    measured.filter((m) => m.firstWrong).map((m) => [m.id, { matches: m.matches, divergence: m.firstWrong?.divergence }]),
  );
  writeFileSync(file, `${JSON.stringify(table, null, 2)}\n`);
}
