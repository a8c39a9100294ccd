import { deliveryKeys, measureOrders, type Measured } from './order-floors.ts';

// Issue 21's delivery model, for any kind: the cluster's events of one object delivered in any
// order EventBridge may produce, with one constraint only: an event that answers jobfold's own
// command (a deletion jobfold asked for) arrives after the reconcile that sent the command, or,
// if this delivery never sends it, last. test/property/{job,jobset}/causal-orders.ts say, per
// kind, what a delivery folds and which events answer which commands.

/** How one delivery runs: the folding of a run of events and what the commands sent so far allow. */
export interface DeliveryLoop {
  /** How many events, indexed in the cluster's order. */
  readonly count: number;
  /** The delivery order's ranks (ties: the cluster's order). */
  readonly keys: readonly number[];
  /** The events held for commands, by index: what each command it waits for names. */
  readonly answers: ReadonlyMap<number, readonly string[]>;
  /** What the commands sent so far named (filled by `fold`). */
  readonly commanded: ReadonlySet<string>;
  /** Whether two events are read by one reconcile (folded as one run). */
  sameRun(a: number, b: number): boolean;
  /** Folds a run of events (indexes, in delivery order) and reconciles after it. */
  fold(run: readonly number[]): void;
  /** Fires the timers jobfold asked for that are due before event `next` (a run starts with it). */
  timersBefore?(next: number): void;
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
  // Commands this delivery never sent, counted as sent once nothing else could arrive.
  const waived = new Set<string>();
  const unmet = (i: number): string | undefined => answers.get(i)?.find((named) => !commanded.has(named) && !waived.has(named));
  const pick = (): number => {
    let next = -1;
    for (let i = 0; i < count; i++) {
      if (delivered[i] || unmet(i) !== undefined) continue;
      if (next < 0 || (keys[i] ?? 0) < (keys[next] ?? 0)) next = i;
    }
    return next;
  };
  while (order.length < count) {
    let next = pick();
    if (next < 0) {
      flush(); // the run folded so far may send the command an answer waits for
      next = pick();
    }
    // Every event left waits for a command this delivery has not sent (it decided otherwise):
    // the first such command of the first of them in the cluster's order is waived, and every
    // event that waits for nothing more may come (the earliest key first). Those that wait for
    // a command this delivery may still send keep waiting for it.
    while (next < 0) {
      const named = unmet(delivered.indexOf(false));
      if (named === undefined) throw new Error('an event left undelivered waits for nothing');
      waived.add(named);
      next = pick();
    }
    const first = run[0];
    if (first !== undefined && !loop.sameRun(first, next)) flush();
    if (run.length === 0) loop.timersBefore?.(next);
    run.push(next);
    delivered[next] = true;
    order.push(next);
  }
  flush();
  return order;
}

// ---- One delivery of one kind, and the properties' measure of a case --------------------------

/** One kind's side of a delivery: a fresh state, folded a run at a time, then reconciled at its timers. */
export interface KindDelivery<Command, State> {
  /** How many events, indexed in the cluster's order. */
  readonly count: number;
  /** Whether two events are read by one reconcile (folded as one run). */
  sameRun(a: number, b: number): boolean;
  /** Folds a run of events (indexes, in delivery order) and reconciles after it: the commands sent. */
  fold(run: readonly number[]): readonly Command[];
  /**
   * Fires the timers jobfold asked for that are due before event `next`, as the service's
   * Scheduler does (each a Tick the writer folds and reconciles): the commands sent. A kind
   * without it is reconciled at its timers only once everything has arrived.
   */
  timersBefore?(next: number): readonly Command[];
  /** Reconciles at a time once everything has arrived: the commands sent and the next timer asked for. */
  reconcile(at: string): { readonly commands: readonly Command[]; readonly wakeAt: string | undefined };
  /** Where the last reconcile runs, once everything has arrived. */
  end(): string;
  state(): State;
}

/** Which events answer which of jobfold's commands (a deletion jobfold asked for). */
export interface Answering<Command> {
  /**
   * What the command names, if an event can answer it (a pod's uid, a child Job's name); `sent`:
   * the commands this delivery sent before it (to tell a command repeated from the first).
   */
  named(command: Command, sent: readonly Command[]): string | undefined;
  /** Whether event `i` answers a command that named `name` (`found`: the answers found so far). */
  answers(i: number, name: string, found: ReadonlyMap<number, string>): boolean;
  /**
   * Every event after an answer, in the cluster's order, waits for the command too, not only the
   * answer: in a history played in a closed loop (test/property/job/managed-histories.ts) the
   * cluster made them after it acted on the command, so none can reach jobfold before it sent it.
   * Each waits for every command answered at or before it: one answering a later command, let
   * through while an earlier answer still waits, would show jobfold a pod view with a hole
   * (jobSeq) only a command it has not sent can fill, and it holds its outcome on such a hole.
   */
  readonly holdsWhatFollows?: boolean;
}

/** What one delivery ends in, and the commands it sent on the way. */
export interface Delivered<Command, State> {
  /** The delivery order: indexes into the events, in the cluster's order. */
  readonly order: readonly number[];
  readonly state: State;
  readonly commands: readonly Command[];
  /** For each event that ended a run (by its index), the commands of the reconcile after it. */
  readonly commandsAfter: ReadonlyMap<number, readonly Command[]>;
}

/** Timers followed after the last delivery; an object still asking for more is compared as it stands then. */
const MAX_TIMERS = 8;

/**
 * Delivers the kind's events in the order `keys` rank them (ties: the cluster's order), an
 * answer (`answers`: its index → what the command it answers named) held until this delivery
 * sent that command or nothing else is left; then reconciles at the kind's end, and at each
 * timer it asks for after.
 */
export function deliverCausally<Command, State>(
  kind: KindDelivery<Command, State>,
  answering: Answering<Command>,
  keys: readonly number[],
  answers: ReadonlyMap<number, readonly string[]> = new Map(),
): Delivered<Command, State> {
  const commands: Command[] = [];
  const commandsAfter = new Map<number, readonly Command[]>();
  const commanded = new Set<string>();
  const send = (sent: readonly Command[]): readonly Command[] => {
    for (const command of sent) {
      const named = answering.named(command, commands);
      if (named !== undefined) commanded.add(named);
      commands.push(command);
    }
    return sent;
  };
  const order = deliverInCausalOrder({
    count: kind.count,
    keys,
    answers,
    commanded,
    sameRun: (a, b) => kind.sameRun(a, b),
    fold: (run) => commandsAfter.set(run.at(-1) as number, send(kind.fold(run))),
    timersBefore: kind.timersBefore === undefined ? undefined : (next) => void send(kind.timersBefore?.(next) ?? []),
  });
  let at: string | undefined = kind.end();
  for (let timers = 0; at !== undefined && timers < MAX_TIMERS; timers++) {
    const reconciled = kind.reconcile(at);
    send(reconciled.commands);
    at = reconciled.wakeAt;
  }
  return { order, state: kind.state(), commands, commandsAfter };
}

/**
 * The events that answer a command of the in-order delivery, with what the command named: for
 * each such command, the first event after the run whose reconcile sent it that answers it; with
 * `holdsWhatFollows`, every event from there on, each with every command answered at or before it.
 */
export function answeredCommands<Command>(
  count: number,
  inOrder: Delivered<Command, unknown>,
  answering: Answering<Command>,
): Map<number, readonly string[]> {
  const found = new Map<number, string>();
  const sent: Command[] = [];
  for (const [after, commands] of inOrder.commandsAfter) {
    for (const command of commands) {
      const name = answering.named(command, sent);
      sent.push(command);
      if (name === undefined) continue;
      for (let i = after + 1; i < count; i++) {
        if (!answering.answers(i, name, found)) continue;
        found.set(i, name);
        break;
      }
    }
  }
  if (answering.holdsWhatFollows === true) return withWhatFollows(count, found);
  return new Map([...found].map(([i, name]) => [i, [name]]));
}

/** Each event from the first answer on, with every command answered at or before it. */
function withWhatFollows(count: number, answers: ReadonlyMap<number, string>): Map<number, readonly string[]> {
  const held = new Map<number, readonly string[]>();
  const before: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = answers.get(i);
    if (name !== undefined && !before.includes(name)) before.push(name);
    if (before.length > 0) held.set(i, [...before]);
  }
  return held;
}

/** One case of an order property: a fresh delivery of its events, and what of the end must converge. */
export interface CausalCase<Command, State, Outcome, Divergence extends string> {
  delivery(): KindDelivery<Command, State>;
  readonly answering: Answering<Command>;
  /** The fields that must not depend on the delivery order (issue 21, "Convergence"). */
  outcome(state: State): Outcome;
  divergence(got: Outcome, want: Outcome): Divergence;
}

/**
 * Measures a case (order-floors.ts): the cluster's own order gives the outcome to reach and the
 * answers to hold back; then `orders` random causal orders drawn from `seed` are delivered.
 */
export function measureCausalOrders<Command, State, Outcome, Divergence extends string>(
  id: string,
  { orders, seed }: { readonly orders: number; readonly seed: number },
  c: CausalCase<Command, State, Outcome, Divergence>,
): Measured<Divergence> {
  const { count, inOrder, answers } = deliveredInOrder(c);
  return measureOrders(id, {
    count,
    orders,
    seed,
    want: c.outcome(inOrder.state),
    deliverIn: (keys) => {
      const delivered = deliverCausally(c.delivery(), c.answering, keys, answers);
      return { order: delivered.order, got: c.outcome(delivered.state) };
    },
    divergence: c.divergence,
  });
}

/** The cluster's own order delivered (every key 0), and the answers it makes later deliveries hold back. */
function deliveredInOrder<Command, State>(c: Pick<CausalCase<Command, State, unknown, string>, 'delivery' | 'answering'>) {
  const first = c.delivery();
  const count = first.count;
  const inOrder = deliverCausally(first, c.answering, new Array<number>(count).fill(0));
  return { count, inOrder, answers: answeredCommands(count, inOrder, c.answering) };
}

/**
 * The delivery orders an order property draws for a case (the same keys from the same seed as
 * measureCausalOrders), after the cluster's own: each as indexes into the events, in the order
 * they arrive. For properties that store what arrives (test/property/job/stored-orders).
 */
export function causalOrders<Command, State>(
  run: { readonly orders: number; readonly seed: number },
  c: Pick<CausalCase<Command, State, unknown, string>, 'delivery' | 'answering'>,
): (readonly number[])[] {
  return causalDeliveries(run, c).map((delivered) => delivered.order);
}

/**
 * The deliveries an order property makes of a case (the same keys from the same seed as
 * measureCausalOrders), the cluster's own first: for properties of what each sends
 * (test/property/jobset/managed-orders: what jobfold deletes and creates).
 */
export function causalDeliveries<Command, State>(
  { orders, seed }: { readonly orders: number; readonly seed: number },
  c: Pick<CausalCase<Command, State, unknown, string>, 'delivery' | 'answering'>,
): Delivered<Command, State>[] {
  const { count, inOrder, answers } = deliveredInOrder(c);
  return [inOrder, ...deliveryKeys(count, { orders, seed }).map((keys) => deliverCausally(c.delivery(), c.answering, keys, answers))];
}
