import { decisionRead } from '../audit/decision-read.ts';
import { childJobStatusEntry } from './child-job-status.ts';
import { firstSightingSeqs, unseenPods } from './first-sightings.ts';
import { jobSummary } from './job-summary.ts';
import { decisionEntry, entryEvent, isDecisionType, observationEntry } from './log-codec.ts';
import { knownObservation, observationContent, refusalRecord, reusedUid } from './known-observation.ts';
import { snapshotDue } from './snapshot-cadence.ts';
import { outboundEvents } from '../contract/outbound.ts';
import type { Decider, DecisionOutbox } from '../decide/decider.ts';
import { terminationPage } from '../outbox/outbox-page.ts';
import { pageDecisions, restOfTermination } from './page-decisions.ts';
import type { JobCommand } from './commands.ts';
import { decide } from './decide.ts';
import { textHash } from './stable-hash.ts';
import type { Decision } from './decisions.ts';
import type { Observation } from './events.ts';
import { evolve, type JobEvent } from './evolve.ts';
import { countAtSync } from './observe-pod.ts';
import { explainJob, type Explanation } from './explain.ts';
import { restoreForTail } from './archive-restore.ts';
import { batchReadsEveryPod, readsEveryPod } from './interim-instants.ts';
import { batchWeighsSuspension } from './suspension-order.ts';
import { archivePod, restoreArchived, restoreSnapshot, takeSnapshot, type ArchivedPod, type JobSnapshot } from './snapshot.ts';
import { DEFAULT_FOLD_CONFIG, initialState, type FoldConfig, type JobState } from './state.ts';

// The Job fold as the write loop's decider (shared/decide/decider.ts): the fold itself
// (evolve, decide), and what the loop needs to keep a Job's log — entries parsed back with the
// event schemas, the dedupe against the fold, termination decisions paged, snapshots with the
// settled pods archived beside them, the outbox of a sync (inline events with its first
// decision, each termination page with its pods), and the child-Job status a JobSet reads.

export type JobDecider = Decider<JobState, Observation, Decision, JobCommand, Explanation>;

export function jobDecider(config: FoldConfig = DEFAULT_FOLD_CONFIG): JobDecider {
  return {
    kind: 'Job',
    initialState: () => initialState(config),
    evolve: (state, event) => {
      evolve(state, event as JobEvent);
      return state;
    },
    settle: countAtSync,
    decide: (state, at, pageBytes) => {
      const { decisions, commands, wakeAt } = decide(state, at);
      return { decisions: pageDecisions(decisions, pageBytes), commands, wakeAt };
    },
    explain: (state, log) => explainJob(state, log as JobEvent[]),
    position: (state) => state.position,
    observedAt: (observation) => observation.observedAt,
    known: knownObservation,
    content: observationContent,
    refuses: reusedUid,
    refusal: (refused, contentKey) => refusalRecord(refused, contentKey),
    log: {
      observation: observationEntry,
      decision: decisionEntry,
      event: entryEvent,
      isDecision: (event): event is Decision => isDecisionType(event.type),
    },
    readRecord: (state, head, chainHead) => decisionRead(head, chainHead, state.config),
    restOf: restOfTermination,
    restCommands: (again, rest) => {
      // The rest's own commands: the terminations of its pages (the others left with the start).
      const restPods = new Set(rest.flatMap((d) => (d.type === 'PodsTerminationRequested' ? d.pods.map((p) => p.uid) : [])));
      return again.commands.filter((c) => c.type === 'TerminatePod' && restPods.has(c.podUid));
    },
    outbox: (state, { decisions, commands }, resumed) => {
      const managedBy = state.settings?.managedBy;
      // A sync's events other than terminations travel with its first decision (a cut-short
      // sync's left with its start); each termination page carries its own pods.
      const inline = resumed ? [] : outboundEvents(state.identity, managedBy, decisions, commands.filter((c) => c.type !== 'TerminatePod'));
      const outbox = decisions.map((decision, i): DecisionOutbox => ({ inline: i === 0 ? inline : [], terminations: terminationPage(decision, managedBy) }));
      return { decisions: outbox, published: outboundEvents(state.identity, managedBy, resumed ? [] : decisions, commands) };
    },
    outboxTarget: (state) => {
      const identity = state.identity;
      if (!identity) return undefined;
      const { clusterId, namespace, name, uid } = identity;
      return { job: { clusterId, namespace, name, uid }, managedBy: state.settings?.managedBy };
    },
    report: (state, at) => childJobStatusEntry(state, at ?? state.newestObservedAt ?? ''),
    snapshot: {
      due: snapshotDue,
      take: takeSnapshot,
      restore: (stored) => restoreSnapshot(stored as JobSnapshot),
    },
    archive: {
      unseen: unseenPods,
      firstSightings: firstSightingSeqs,
      async restoreForTail(store, stream, state, tail, firstSightings, whole) {
        // The writer decides after the load: a Job with a success policy gets its whole archive
        // back (its decisions read every pod's instant), and so does a batch decided again
        // because its decisions read every pod (readsEveryPod), so a cold load decides as the
        // warm state and a replay of the whole log do, whatever the snapshot cadence. Marked
        // stored: the next snapshot does not store them again.
        const { restored, whole: restoredWhole } = await restoreForTail(store, stream, state, tail as JobEvent[], firstSightings, whole ? 'decide-whole' : 'decide');
        markStored(state, restored);
        return restoredWhole;
      },
      readsEveryRecord: (state, entries) => entries.some((event) => readsEveryPod(state, event as JobEvent)),
      async restoreForBatch(store, stream, state, observations) {
        // A batch after which decide may read every pod's instant: the whole archive (interim-instants.ts,
        // suspension-order.ts batchWeighsSuspension).
        const whole = batchReadsEveryPod(state, observations) || batchWeighsSuspension(state, observations as Observation[]);
        const missing = whole ? [] : [...new Set(observations.flatMap(podUid))].filter((uid) => !state.pods.has(uid));
        if (!whole && missing.length === 0) return false;
        const archived = whole ? await store.loadAllArchivedPods(stream) : await store.loadArchivedPods(stream, missing);
        // Only the pods the state lacked are put back. Those it holds may have changed since they
        // were archived (the tail folded after the snapshot): marked stored in that form, which the
        // archive does not hold, the next snapshot would not save it, and the load after it would
        // put back the old one (stored-orders seed 5: an older observation then counted a pod twice).
        const restored = archived.filter((pod) => !state.pods.has(pod.uid));
        restoreArchived(state, restored);
        // Already in the archive: the next snapshot does not store them again.
        markStored(state, restored);
        return whole;
      },
      async save(store, stream, state, archived) {
        // A pod whose archived form changed since it was stored is stored again (the later save wins).
        const fresh: ArchivedPod[] = [];
        const hashes: string[] = [];
        for (const pod of archived as ArchivedPod[]) {
          const hash = storedFormHash(pod);
          if (state.pods.get(pod.uid)?.storedAs === hash) continue;
          fresh.push(pod);
          hashes.push(hash);
        }
        // Saved at the snapshot's position: a fold from an older snapshot tells a form stored after it.
        if (fresh.length > 0) await store.saveArchivedPods(stream, fresh.map((pod) => ({ ...pod, archivedAt: state.position })));
        // The warm state keeps its settled pods (no archive read for them while warm), marked as
        // stored so the next snapshot does not archive them again: with the hash of the form the
        // store was given (the filter's, without its position), not hashed again from the record.
        fresh.forEach((pod, i) => {
          const record = state.pods.get(pod.uid);
          if (record) record.storedAs = hashes[i];
        });
      },
    },
    summary: jobSummary,
    name: (state) => state.identity?.name,
    nameInEntry: (entry) => {
      if (entry.type !== 'JobObserved') return undefined;
      const name = (entry.body as { job?: { metadata?: { name?: unknown } } } | null)?.job?.metadata?.name;
      return typeof name === 'string' ? name : undefined;
    },
    size: (state) => state.pods.size,
  };
}

/** The records of `pods` are in the archive as they are now (pod-record.ts storedAs). */
function markStored(state: JobState, pods: readonly ArchivedPod[]): void {
  for (const pod of pods) {
    const record = state.pods.get(pod.uid);
    if (record) record.storedAs = storedFormHash(archivePod(record));
  }
}

/**
 * pod-record.ts storedAs: compared only with another taken in this process, from a form
 * archivePod built (its keys always in one order), so the JSON text needs no sorting. A save
 * hashes every settled pod of the snapshot: 100,000 of them took 1.8 s with stableHash's
 * canonical JSON (issue 20).
 */
const storedFormHash = (pod: ArchivedPod): string => textHash(JSON.stringify(pod));

function podUid(observation: Observation): string[] {
  if (observation.type === 'PodObserved') return [observation.pod.metadata.uid];
  if (observation.type === 'PodDeleted') return [observation.uid];
  return [];
}
