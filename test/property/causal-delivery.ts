// Issue 21's delivery model, for any kind (test/property/{job,jobset}/causal-orders.ts): the
// cluster's events of one object delivered in any order EventBridge may produce, with one
// constraint only: an event that answers jobfold's own command (a deletion jobfold asked for)
// arrives after the reconcile that sent the command, or, if this delivery never sends it, last.

/** How one delivery runs: the folding of a run of events and what the commands sent so far allow. */
export interface DeliveryLoop {
  /** How many events, indexed in the cluster's order. */
  readonly count: number;
  /** The delivery order's ranks (ties: the cluster's order). */
  readonly keys: readonly number[];
  /** The events that answer a command, by index: what the command names. */
  readonly answers: ReadonlyMap<number, string>;
  /** What the commands sent so far named (filled by `fold`). */
  readonly commanded: ReadonlySet<string>;
  /** Whether two events are read by one reconcile (folded as one run). */
  sameRun(a: number, b: number): boolean;
  /** Folds a run of events (indexes, in delivery order) and reconciles after it. */
  fold(run: readonly number[]): void;
}

/** Delivers every event in the loop's order, folding runs as they end; returns the delivery order. */
export function deliverInCausalOrder(loop: DeliveryLoop): number[] {
  const { count, keys, answers, commanded } = loop;
  const delivered = new Array<boolean>(count).fill(false);
  const order: number[] = [];
  let run: number[] = [];
  const flush = () => {
    if (run.length === 0) return;
    loop.fold(run);
    run = [];
  };
  const pick = (heldToo: boolean): number => {
    let next = -1;
    for (let i = 0; i < count; i++) {
      if (delivered[i]) continue;
      const answered = answers.get(i);
      if (!heldToo && answered !== undefined && !commanded.has(answered)) continue;
      if (next < 0 || (keys[i] ?? 0) < (keys[next] ?? 0)) next = i;
    }
    return next;
  };
  while (order.length < count) {
    let next = pick(false);
    if (next < 0) {
      flush(); // the run folded so far may send the command an answer waits for
      next = pick(false);
    }
    if (next < 0) next = pick(true);
    const first = run[0];
    if (first !== undefined && !loop.sameRun(first, next)) flush();
    run.push(next);
    delivered[next] = true;
    order.push(next);
  }
  flush();
  return order;
}
