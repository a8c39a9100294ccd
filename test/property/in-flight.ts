import fc from 'fast-check';

// The bus between a simulated cluster and jobfold in a closed-loop history (test/property/jobset/
// managed-histories.ts): each event the cluster makes reaches jobfold after a delay of its own,
// so jobfold may fold it after events the cluster made later (issue 21's delivery orders); those
// that reach it in one second come in an order of their own. jobfold acts on what has reached it
// and the cluster on jobfold's commands, so a delivery's cluster is its own: an event the cluster
// made after acting on a command can never reach jobfold before it sent the command.

/** How a delivery carries events: each one's delay (seconds) and its rank among those of one second. */
export interface Carriage {
  next(): { readonly delay: number; readonly rank: number };
}

/** The cluster's own order: every event reaches jobfold as soon as it is made, in the order made. */
export const inClusterOrder = (): Carriage => {
  let made = 0;
  return { next: () => ({ delay: 0, rank: made++ }) };
};

/**
 * A delivery drawn at random: each event delayed by 0 to `maxDelay` seconds (uniformly; a
 * history's length lets any event arrive after any later one), the events of one second ranked at random.
 */
export const carriageArb = (maxDelay: number): fc.Arbitrary<Carriage> =>
  fc.infiniteStream(fc.record({ delay: fc.integer({ min: 0, max: maxDelay }), rank: fc.nat({ max: 1_000_000 }) })).map((stream) => {
    const draws = stream[Symbol.iterator]();
    return { next: () => draws.next().value as { delay: number; rank: number } };
  });

/** The events in flight: sent at a time (`second`: the clock's units in a second), each taken once it has arrived, in arrival order. */
export function inFlight<Event>(carriage: Carriage, second = 1000) {
  let flying: { readonly event: Event; readonly arrival: number; readonly rank: number }[] = [];
  return {
    send(event: Event, at: number): void {
      const { delay, rank } = carriage.next();
      flying.push({ event, arrival: at + delay * second, rank });
    },
    /** The events arrived by `at`, in the order they arrive (those of one instant by rank). */
    take(at: number): Event[] {
      const arrived = flying.filter((f) => f.arrival <= at).sort((a, b) => a.arrival - b.arrival || a.rank - b.rank);
      flying = flying.filter((f) => f.arrival > at);
      return arrived.map((f) => f.event);
    },
    /** When the next event arrives (Infinity: none in flight). */
    nextArrival: (): number => flying.reduce((soonest, f) => Math.min(soonest, f.arrival), Number.POSITIVE_INFINITY),
    size: (): number => flying.length,
  };
}
