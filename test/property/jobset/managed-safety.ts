import type { JobSetCommand } from '../../../shared/jobset/commands.ts';
import { deliverCausally } from '../causal-delivery.ts';
import { jobSetDelivery } from './causal-orders.ts';
import type { ManagedJobSetHistory } from './managed-histories.ts';

// Issue 21's safety for JobSets jobfold runs, whatever the order (managed-orders.property.spec.ts):
// a delivery's jobfold deletes no child Job that was healthy in the delivery's own cluster and
// creates none twice. "Healthy" is judged against a reference: the delivery's own cluster's
// events folded in that cluster's order.

/** A played history's events folded in its cluster's order, each reconciled after, then at its end. */
export const foldedInClusterOrder = ({ bus, end }: Pick<ManagedJobSetHistory, 'bus' | 'end'>) =>
  deliverCausally(jobSetDelivery(bus, end), { named: () => undefined, answers: () => false }, new Array<number>(bus.observations.length).fill(0));

/** A child Job of one restart attempt, as its commands name it: `<attempt>/<name>` (the commandId's). */
const jobOf = (command: JobSetCommand): string => command.commandId.split('/').slice(-4, -2).join('/');

/** The Jobs (`<attempt>/<name>`) a played history's cluster shows, and those it shows failed. */
function clusterJobs({ bus }: Pick<ManagedJobSetHistory, 'bus'>): { readonly shown: Set<string>; readonly failed: Set<string> } {
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
 * The unsafe commands one delivery sent: a DeleteJob of a Job its cluster showed, never showed
 * failed, and the reference neither deleted nor left behind in an attempt it restarted past, and
 * a second CreateJob of one name and restart attempt.
 *
 * The attempts the reference restarted past count as well as the Jobs it deleted: a restart
 * ends every Job of the attempts before it (upstream's getChildJobs lists them as `previous` and
 * deletes them whenever it lists them), but the reference deletes only the Jobs it knew of when
 * it restarted. A delivery's jobfold can create a Job before the failure reaches it, on a view
 * the cluster's order never shows (a suspension seen first: every Job is created, suspended); its
 * cluster then shows that Job after the failure, and the reference, holding the next attempt's
 * create under its name, takes the older attempt's snapshot for a late one and never deletes it.
 * The delivery's deletion of it is the restart's, not a healthy Job's.
 */
export function unsafeCommandsOf(delivered: Pick<ManagedJobSetHistory, 'bus' | 'end' | 'sent'>): string[] {
  const reference = foldedInClusterOrder(delivered);
  const deletedInOrder = new Set(reference.commands.filter((c) => c.type === 'DeleteJob').map(jobOf));
  const endedByRestart = (job: string) => Number(job.split('/')[0]) < reference.state.restarts;
  const { shown, failed } = clusterJobs(delivered);
  const unsafe: string[] = [];
  const created = new Set<string>();
  for (const command of delivered.sent) {
    const job = jobOf(command);
    if (command.type === 'DeleteJob' && shown.has(job) && !failed.has(job) && !deletedInOrder.has(job) && !endedByRestart(job)) unsafe.push(`deleted healthy ${job}`);
    if (command.type !== 'CreateJob') continue;
    if (created.has(job)) unsafe.push(`created ${job} twice`);
    created.add(job);
  }
  return unsafe;
}
