import type { PodObserved } from '../../../shared/job/events.ts';
import type { PodPhase } from '../../../shared/k8s/pod.ts';
import { aPod, at, podObserved, type PodOptions } from '../../support/builders.ts';

/** Pod `name` seen in `phase` at `seconds`; a terminal pod finished a second before. */
export function pod(name: string, phase: PodPhase, seconds: number, options: PodOptions = {}): PodObserved {
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  return podObserved(aPod({ name, phase, finishedAt: terminal ? at(seconds - 1) : undefined, ...options }), at(seconds));
}
