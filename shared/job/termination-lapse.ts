import { EXPECTATIONS_TIMEOUT_MS, JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import { podClass } from './pod-record.ts';
import { record, type Sync } from './sync.ts';

/**
 * Issue 21, "nothing wedged": a Job jobfold runs asked for pods' deletion (a cause the
 * forwarder's guard re-checks on the live Job, shared/job/deletion-guard.ts), and the
 * expectations timeout passed without any of its observations showing them deleted, finished or
 * gone. The guard may have refused (the spec the decision read was already undone), or the
 * command was lost: either way they are active again in jobfold's view, as upstream's pods are
 * once its deletion expectations expire and its informer still lists them, and this sync decides
 * on them afresh (a deletion decided again is the same command, `<jobUid>/terminate/<podUid>`,
 * which the forwarder applies again: it remembers only the deletions it made).
 *
 * What the termination released stays released (pod-record.ts `released`): jobfold asked for the
 * finalizer's removal in the same sync, and the pod's own observations tell whether it went (the
 * forwarder keeps it on a pod whose deletion it refused). A deletion that was made, but whose
 * observations arrive after the timeout, then counts as it does in the cluster's order.
 *
 * Only the pods of the Job's last deletion expectation (state.expectations.deletions: those not
 * seen deleted yet), so a sync reads O(pods it asked to delete), and only once that expectation
 * has expired: the sync that asked woke the Job for then (decide.ts scheduleWakeUp). The sync
 * that records the lapse reads them as active (`sync.lapsed`: sync.ts activePods, terminate), so
 * it decides on them at once, as upstream's sync after an expired expectation does: a deletion
 * still called for is asked again in that sync, and a fold whose cluster never deletes (a Job
 * jobfold runs whose forwarder is down) holds the pod terminating at every sync, as before.
 */
export function lapseUnseenTerminations(sync: Sync): void {
  const { state } = sync;
  const { deletions, setAt } = state.expectations;
  if (deletions.size === 0 || setAt === undefined || sync.now - setAt <= EXPECTATIONS_TIMEOUT_MS) return;
  if (state.settings?.managedBy !== JOBFOLD_CONTROLLER_NAME) return;
  const lapsed = [];
  for (const uid of deletions) {
    const pod = state.pods.get(uid);
    if (pod?.released === true && pod.terminationRequestedAt !== undefined && podClass(pod) === 'terminating' && pod.deletionTimestamp === undefined) lapsed.push(pod);
  }
  if (lapsed.length === 0) return;
  sync.lapsed = new Set(lapsed.map((p) => p.uid));
  record(sync, { type: 'PodsTerminationExpired', pods: lapsed.map((p) => ({ uid: p.uid, name: p.name, index: p.index, seq: p.seq })) });
  for (const pod of lapsed) {
    sync.active += 1;
    sync.terminating -= 1;
    if (pod.ready) sync.ready += 1;
  }
}
