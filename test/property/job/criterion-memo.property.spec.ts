import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { completionsMetAt, completionsReachedAt, criterionMetAt, rememberedCriterionMetAt } from '../../../shared/job/criterion-instants.ts';
import { criterionMetBefore } from '../../../shared/job/met-before.ts';
import { expectedCreations } from '../../../shared/job/expectations.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import { Reason } from '../../../shared/k8s/job-controller.ts';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import type { JobState } from '../../../shared/job/state.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { clusterHistoryArb, historyArb, jobArb, type Batch } from './arbitraries.ts';
import { drive, startJob } from './drive.ts';

// The criteria's instants decide keeps (criterion-instants.ts rememberedCriterionMetAt) are
// dropped by evolve only for an event that can move one: a deletion judged before it is folded
// (deletionMovesNoInstant), a pod observation by what it changed (observationMovesNoInstant).
// Given generated histories (cluster ones and free ones), in their order and in shuffled orders,
// when every criterion's instant is asked after each event is folded (so the memo holds values
// through every kind of event), then the remembered instant is the one a fresh walk of the pods
// gives. A skip that is wrong shows here as a stale instant, on the event that made it stale.
// The same for the gate that spares criterionMetEarlier its walk (met-before.ts): whenever it is
// shut after an event, whoever shut it (decide, or this spec at the criterion's own instant, the
// tightest), a fresh walk finds the criterion not met before its instant. And the count of
// creations still expected (expectations.ts), remembered too, equals a fresh count.

const REASONS = [Reason.SuccessPolicy, Reason.PodFailurePolicy, Reason.BackoffLimitExceeded, Reason.MaxFailedIndexesExceeded, Reason.FailedIndexes, Reason.DeadlineExceeded];
const HISTORIES = 60;
const ORDERS = 5;
const SEED = 2120;

function expectRememberedFresh(state: JobState, where: () => string): void {
  // Both bounds: a suspension is weighed against the earliest instant too (suspension-order.ts).
  for (const bound of ['seen', 'earliest'] as const) {
    for (const reason of REASONS) {
      const remembered = rememberedCriterionMetAt(state, reason, bound);
      const fresh = criterionMetAt(state, reason, bound);
      if (remembered !== fresh) expect.fail(`${reason} (${bound}): remembered ${remembered}, a fresh walk ${fresh} (${where()})`);
    }
    const remembered = completionsMetAt(state, bound);
    const fresh = completionsReachedAt(state, bound);
    if (remembered !== fresh) expect.fail(`completions (${bound}): remembered ${remembered}, a fresh walk ${fresh} (${where()})`);
  }
}

/** The criteria that read the pods, whose gate this spec shuts in turn. */
const POD_REASONS = REASONS.filter((reason) => reason !== Reason.DeadlineExceeded);

/** A shut gate holds (a fresh walk agrees); an open or absent one is shut again, at the instant a fresh walk gives. */
function expectGateHolds(state: JobState, turn: number, where: () => string): void {
  const gate = state.criterionMemo.metBefore;
  if (gate !== undefined && !gate.open && gate.pods === state.pods.size) {
    const fresh = criterionMetAt(state, gate.reason);
    if (fresh !== undefined && fresh < gate.before) expect.fail(`${gate.reason}: gate shut at ${gate.before}, a fresh walk ${fresh} (${where()})`);
    return;
  }
  const reason = POD_REASONS[turn % POD_REASONS.length] as string;
  const before = criterionMetAt(state, reason) ?? state.clock.now ?? Number.POSITIVE_INFINITY;
  if (criterionMetBefore(state, reason, before) !== undefined) expect.fail(`${reason}: met before the instant a fresh walk gives (${where()})`);
}

/** expectedCreations' remembered count of moot indexes (expectations.ts) against a fresh one. */
function expectCreationsFresh(state: JobState, where: () => string): void {
  const { creations, indexes } = state.expectations;
  const { completedIndexes, failedIndexes } = state.status;
  const fresh = creations <= 0 || indexes === undefined || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME
    ? creations
    : creations - indexes.filter((index) => completedIndexes.has(index) || failedIndexes.has(index)).length;
  const remembered = expectedCreations(state);
  if (remembered !== fresh) expect.fail(`expected creations: remembered ${remembered}, fresh ${fresh} (${where()})`);
}

/** The history's events one per batch, in `order` (indexes into the flattened history), each reconciled at its own time. */
function reordered(batches: readonly Batch[], order: readonly number[]): Batch[] {
  const events = batches.flatMap((batch) => batch.events.map((event) => ({ event, at: batch.at })));
  return order.map((i) => {
    const { event, at } = events[i] as { event: JobEvent; at: string };
    return { at: 'observedAt' in event ? event.observedAt : at, events: [event] };
  });
}

const histories = (arb: typeof historyArb) =>
  fc.sample(jobArb.chain((job) => fc.record({ job: fc.constant(job), batches: arb(job) })), { seed: SEED, numRuns: HISTORIES });

function check(job: Job, batches: readonly Batch[], label: string): void {
  let n = 0;
  drive(startJob(job), batches, {
    afterEvent: (state) => {
      n += 1;
      expectRememberedFresh(state, () => `${label}, event ${n}`);
      expectGateHolds(state, n, () => `${label}, event ${n}`);
      expectCreationsFresh(state, () => `${label}, event ${n}`);
    },
    afterReconcile: (state, reconcile) => {
      expectRememberedFresh(state, () => `${label}, reconcile at ${reconcile.at}`);
      expectCreationsFresh(state, () => `${label}, reconcile at ${reconcile.at}`);
    },
  });
}

describe('remembered criteria instants, and the gate of a criterion met before the finish, agree with a fresh walk after every event', () => {
  for (const [population, arb] of [['cluster', clusterHistoryArb], ['free', historyArb]] as const) {
    it(`${HISTORIES} generated ${population} histories, in order and in ${ORDERS} shuffled orders each`, () => {
      histories(arb).forEach(({ job, batches }, h) => {
        check(job, batches, `${population} history ${h}, in order`);
        const size = batches.reduce((sum, batch) => sum + batch.events.length, 0);
        const orders = fc.sample(fc.shuffledSubarray([...Array(size).keys()], { minLength: size, maxLength: size }), { seed: SEED + h, numRuns: ORDERS });
        orders.forEach((order, o) => check(job, reordered(batches, order), `${population} history ${h}, order ${o}`));
      });
    });
  }
});
