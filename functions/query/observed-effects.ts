import * as z from 'zod';
import type { LogEntry } from '../../shared/log/event-store.ts';
import { entryPart } from '../../shared/job/index.ts';
import { COMMAND_ID_ANNOTATION, JOB_TRACKING_FINALIZER } from '../../shared/job/index.ts';
import { PodObservedSchema } from '../../shared/job/index.ts';
import type { CommandLogEvent } from './issued-commands.ts';

// What the cluster reported, after a decision, about the pods its commands acted on. jobfold
// records no acknowledgement from the forwarder, so this is the only sign in the log that a
// command took effect — and only a sign: a pod deleted by someone else looks the same.
//  - pod terminations: the pod later observed with a deletionTimestamp, or deleted;
//  - pod creations: a pod later observed carrying the command's id in `jobfold.io/command-id`
//    (the forwarder writes it on every pod it creates; commandId `<jobUid>/create/<n>`, n
//    counting the Job's creation requests, as shared/job/manage-pods.ts numbers them);
//  - finalizer removals: the pod later observed without `batch.kubernetes.io/job-tracking`, or
//    deleted (a pod with the finalizer cannot go).
// A status write has no such sign (the Job's observed status is not compared), so it gets none.

/** Of `of` pods a decision's commands named, `count` were reported as asked; the latest at `lastSeq`. */
export interface ObservedEffect {
  count: number;
  of: number;
  lastSeq?: number;
  lastAt?: string;
}

/**
 * What observedEffects reads of a pod observation, parsed by the same rules as the whole event:
 * the pod's uid, deletion, finalizers and annotations (its status stays unread).
 */
const PodEffectSchema = PodObservedSchema.pick({ type: true, observedAt: true, seq: true }).extend({
  pod: z.object({ metadata: PodObservedSchema.shape.pod.shape.metadata.pick({ uid: true, deletionTimestamp: true, finalizers: true, annotations: true }) }),
});
export type PodEffectObserved = z.output<typeof PodEffectSchema>;

/** A stored PodObserved entry read for its effects only (entryPart: corrupt parts throw). */
export const podEffectEntry = (entry: LogEntry): PodEffectObserved => entryPart(entry, PodEffectSchema);

/**
 * For each pod-command decision (by its seq), what the cluster later reported. `log` may start
 * mid-way: `creationsBefore` is then the number of pods whose creation was requested before it.
 */
export function observedEffects(log: readonly CommandLogEvent[], jobUid: string, creationsBefore = 0): Map<number, ObservedEffect> {
  const effects = new Map<number, ObservedEffect>();
  const awaitingDeletion = new Map<string, ObservedEffect>();
  const awaitingCreation = new Map<string, ObservedEffect>();
  const awaitingFinalizerRemoval = new Map<string, ObservedEffect>();
  let creations = creationsBefore;
  const seen = (waiting: Map<string, ObservedEffect>, key: string | undefined, seq: number | undefined, at: string) => {
    const effect = key === undefined ? undefined : waiting.get(key);
    if (!effect || key === undefined) return;
    waiting.delete(key);
    effect.count++;
    if (seq !== undefined) effect.lastSeq = seq;
    effect.lastAt = at;
  };
  for (const event of log) {
    switch (event.type) {
      case 'PodsTerminationRequested': {
        const effect: ObservedEffect = { count: 0, of: event.pods.length };
        effects.set(event.seq ?? 0, effect);
        for (const pod of event.pods) awaitingDeletion.set(pod.uid, effect);
        break;
      }
      case 'PodFinalizersRemovalRequested': {
        const effect: ObservedEffect = { count: 0, of: event.pods.length };
        effects.set(event.seq ?? 0, effect);
        for (const pod of event.pods) awaitingFinalizerRemoval.set(pod.uid, effect);
        break;
      }
      case 'PodCreationsRequested': {
        const effect: ObservedEffect = { count: 0, of: event.count };
        effects.set(event.seq ?? 0, effect);
        for (let i = 0; i < event.count; i++) awaitingCreation.set(`${jobUid}/create/${creations + i}`, effect);
        creations += event.count;
        break;
      }
      case 'PodObserved': {
        const { uid, deletionTimestamp, annotations, finalizers } = event.pod.metadata;
        if (deletionTimestamp !== undefined) seen(awaitingDeletion, uid, event.seq, event.observedAt);
        if (!(finalizers ?? []).includes(JOB_TRACKING_FINALIZER)) seen(awaitingFinalizerRemoval, uid, event.seq, event.observedAt);
        seen(awaitingCreation, annotations?.[COMMAND_ID_ANNOTATION], event.seq, event.observedAt);
        break;
      }
      case 'PodDeleted':
        seen(awaitingDeletion, event.uid, event.seq, event.observedAt);
        seen(awaitingFinalizerRemoval, event.uid, event.seq, event.observedAt);
        break;
      default:
        break;
    }
  }
  return effects;
}
