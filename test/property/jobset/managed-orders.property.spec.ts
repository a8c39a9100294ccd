import { readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobSetCommand } from '../../../shared/jobset/commands.ts';
import { causalDeliveries, deliverCausally } from '../causal-delivery.ts';
import { describeOrders } from '../order-floors.ts';
import { jobSetDelivery, measureJobSetEvents } from './causal-orders.ts';
import { managedAnswering, managedJobSetHistoryArb, playManagedJobSetHistory, type ManagedJobSetHistory } from './managed-histories.ts';

// Issue 21, "Convergence", for JobSets jobfold runs (`managedBy` jobfold's JobSet controller),
// over histories their cluster produces: each is played in a closed loop (managed-histories.ts),
// jobfold's own commands acted on by the simulated cluster, so the child Jobs it asked for exist
// and those it deleted go. Its events are delivered in random causal orders
// (../causal-delivery.ts): whatever the cluster did after acting on one of jobfold's commands (the
// command's first answer: the Job created, suspended or resumed first seen, the Job's deletion;
// and every event after it in the cluster's order) waits for the reconcile that sent it, each for
// every command answered at or before it. The status must be the one the cluster's own order
// gives. generated-orders.property.spec.ts measures JobSets the cluster's controller runs. Histories
// and orders come from fixed seeds, so the floors in managed-orders.known.json (../order-floors.ts)
// hold run after run.
const HISTORIES = 60;
const ORDERS = 10;
const SEED = 21;
const RUN = { orders: ORDERS, seed: SEED };

const histories = fc.sample(managedJobSetHistoryArb, { seed: SEED, numRuns: HISTORIES }).map(({ jobSet, steps }, n) => playManagedJobSetHistory(`history-${n}`, jobSet, steps));

const managedCase = (history: ManagedJobSetHistory) => ({ delivery: () => jobSetDelivery(history.bus, history.end), answering: managedAnswering(history) });

describeOrders('generated managed JobSet history, closed loop', histories, ORDERS, new URL('./managed-orders.known.json', import.meta.url), (history) =>
  measureJobSetEvents(history.id, RUN, history.bus, history.end, managedAnswering(history)),
);

// The in-order delivery is the closed loop itself: otherwise the floors would measure the fold
// against a history its own commands did not make.
describe('generated managed JobSet histories', () => {
  it.each(histories)("$id, folded in the cluster's order, sends the commands its cluster acted on", (history) => {
    const { delivery, answering } = managedCase(history);
    const inOrder = deliverCausally(delivery(), answering, new Array<number>(history.bus.observations.length).fill(0));
    expect(inOrder.commands.map((c) => c.commandId)).toEqual(history.sent.map((c) => c.commandId));
  });
});

/** A child Job of one restart attempt, as its commands name it: `<attempt>/<name>` (the commandId's). */
const jobOf = (command: JobSetCommand): string => command.commandId.split('/').slice(-4, -2).join('/');

/** The Jobs (`<attempt>/<name>`) the history shows, and those it shows failed. */
function clusterJobs({ bus }: ManagedJobSetHistory): { readonly shown: Set<string>; readonly failed: Set<string> } {
  const shown = new Set<string>();
  const failed = new Set<string>();
  for (const o of bus.observations) {
    if (o.type !== 'JobObserved') continue;
    const uid = o.job.metadata.uid ?? '';
    const job = `${uid.slice(uid.lastIndexOf('-') + 1)}/${o.job.metadata.name}`;
    shown.add(job);
    if ((o.job.status?.conditions ?? []).some((c) => c.type === 'Failed' && c.status === 'True')) failed.add(job);
  }
  return { shown, failed };
}

/**
 * Issue 21's safety for JobSets jobfold runs, whatever the order: no deletion of a child Job that
 * was healthy in the cluster's order (shown by the history, never failed, and not deleted by the
 * in-order delivery, which deletes those of an attempt a restart left behind; a Job only this
 * delivery created, on a view the cluster's order never had, goes with its restart as any does),
 * and no extra creation (never two CreateJobs of one name and restart attempt).
 */
function unsafeCommands(history: ManagedJobSetHistory): string[] {
  const [inOrder, ...reordered] = causalDeliveries(RUN, managedCase(history));
  const deletedInOrder = new Set((inOrder?.commands ?? []).filter((c) => c.type === 'DeleteJob').map(jobOf));
  const { shown, failed } = clusterJobs(history);
  const unsafe: string[] = [];
  for (const [n, delivered] of reordered.entries()) {
    const created = new Set<string>();
    for (const command of delivered.commands) {
      const job = jobOf(command);
      if (command.type === 'DeleteJob' && shown.has(job) && !deletedInOrder.has(job) && !failed.has(job)) unsafe.push(`order ${n}: deleted healthy ${job}`);
      if (command.type !== 'CreateJob') continue;
      if (created.has(job)) unsafe.push(`order ${n}: created ${job} twice`);
      created.add(job);
    }
  }
  return unsafe;
}

// The histories some order still makes jobfold delete a healthy Job or create one twice in, each
// with how many such commands its orders send at most (a ceiling: lower it after a fix, with
// JOBFOLD_WRITE_KNOWN=1, as the order floors are raised).
const unsafeKnownFile = new URL('./managed-safety.known.json', import.meta.url);
const unsafeKnown = JSON.parse(readFileSync(unsafeKnownFile, 'utf8')) as Record<string, number>;
const unsafeFound = new Map<string, number>();

describe('generated managed JobSet histories in random causal orders', () => {
  it.each(histories)('$id deletes no healthy child Job and creates none twice', (history) => {
    const unsafe = unsafeCommands(history);
    unsafeFound.set(history.id, unsafe.length);
    expect(unsafe.length, `${history.id}: ${JSON.stringify(unsafe)}`).toBeLessThanOrEqual(unsafeKnown[history.id] ?? 0);
  });

  it('lists only existing histories as known unsafe', () => {
    const ids = new Set(histories.map((h) => h.id));
    expect(Object.keys(unsafeKnown).filter((id) => !ids.has(id))).toEqual([]);
  });

  afterAll(() => {
    if (unsafeFound.size < histories.length) return;
    const unsafe = [...unsafeFound.values()];
    console.log(`safety (generated managed JobSet history, closed loop): ${unsafe.reduce((a, b) => a + b, 0)} unsafe commands in ${unsafe.filter((n) => n > 0).length} of ${histories.length} histories × ${ORDERS} orders`);
    if (process.env['JOBFOLD_WRITE_KNOWN'] !== '1') return;
    writeFileSync(unsafeKnownFile, `${JSON.stringify(Object.fromEntries([...unsafeFound].filter(([, n]) => n > 0)), null, 2)}\n`);
  });
});
