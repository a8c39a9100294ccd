import type { Job } from '../shared/k8s/job.ts';
import type { Pod, PodPhase } from '../shared/k8s/pod.ts';
import type { Observation } from '../shared/job/index.ts';

/**
 * A synthetic Indexed Job and its event stream, as a forwarder would send it: every pod is
 * observed Pending, Running, then Succeeded or Failed; about 2% of attempts fail and their
 * index gets a new pod. A window of `parallelism` indexes runs at once and time moves 10 ms
 * per event, so the stream looks like a real Job of 100,000 completions running for hours.
 */
export interface SyntheticJobOptions {
  readonly completions: number;
  readonly parallelism: number;
  readonly failureEvery: number;
}

const T0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A `succeededIndexes` of about 64 KiB whose ranges are scattered over all completions, so the
 * success policy is met only near the end of the run.
 */
export function sixtyFourKiBIndexes(completions: number): string {
  for (let stride = 4; ; stride++) {
    const parts: string[] = [];
    for (let i = 0; i < completions; i += stride) {
      const last = Math.min(i + Math.floor(stride / 2), completions - 1);
      parts.push(last > i ? `${i}-${last}` : `${i}`);
    }
    const text = parts.join(',');
    if (text.length <= 65536) return text;
  }
}

export function syntheticJob(options: SyntheticJobOptions): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'bench', namespace: 'default', uid: 'bench-uid', creationTimestamp: iso(T0) },
    spec: {
      completions: options.completions,
      parallelism: options.parallelism,
      completionMode: 'Indexed',
      backoffLimit: options.completions,
      successPolicy: { rules: [{ succeededIndexes: sixtyFourKiBIndexes(options.completions) }] },
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'bench' }] } },
    },
  } as Job;
}

function pod(index: number, attempt: number, phase: PodPhase, at: number, exitCode?: number): Pod {
  const terminated = exitCode === undefined ? undefined : { exitCode, finishedAt: iso(at) };
  return {
    metadata: {
      name: `bench-${index}-${attempt}`,
      namespace: 'default',
      uid: `uid-${index}-${attempt}`,
      creationTimestamp: iso(at),
      annotations: { 'batch.kubernetes.io/job-completion-index': String(index) },
      finalizers: ['batch.kubernetes.io/job-tracking'],
      ownerReferences: [{ kind: 'Job', name: 'bench', uid: 'bench-uid', controller: true }],
    },
    status: {
      phase,
      conditions: phase === 'Running' ? [{ type: 'Ready', status: 'True', lastTransitionTime: iso(at) }] : [],
      containerStatuses: [{ name: 'main', restartCount: 0, state: terminated ? { terminated } : {} }],
    },
  } as Pod;
}

/** The observations of the whole run, in time order. */
export function syntheticEvents(options: SyntheticJobOptions): Observation[] {
  const events: Observation[] = [];
  let clock = T0 + 1000;
  const emit = (p: Pod) => {
    clock += 10;
    events.push({
      type: 'PodObserved',
      eventId: `${p.metadata.uid}/${p.status?.phase}`,
      clusterId: 'bench',
      observedAt: iso(clock),
      pod: p,
    });
  };
  // Each running slot walks its pod through Pending → Running → terminal; slots take turns.
  type Slot = { index: number; attempt: number; step: number };
  let nextIndex = 0;
  let attempts = 0;
  const slots: Slot[] = [];
  const startSlot = (): Slot | undefined =>
    nextIndex < options.completions ? { index: nextIndex++, attempt: 0, step: 0 } : undefined;
  for (let s = 0; s < options.parallelism; s++) {
    const slot = startSlot();
    if (slot) slots.push(slot);
  }
  while (slots.length > 0) {
    for (let s = 0; s < slots.length; s++) {
      const slot = slots[s] as Slot;
      if (slot.step === 0) emit(pod(slot.index, slot.attempt, 'Pending', clock));
      else if (slot.step === 1) emit(pod(slot.index, slot.attempt, 'Running', clock));
      else {
        const fails = ++attempts % options.failureEvery === 0;
        emit(pod(slot.index, slot.attempt, fails ? 'Failed' : 'Succeeded', clock, fails ? 1 : 0));
        const next = fails ? { index: slot.index, attempt: slot.attempt + 1, step: 0 } : startSlot();
        if (next) slots[s] = next;
        else slots.splice(s--, 1);
        continue;
      }
      slot.step += 1;
    }
  }
  return events;
}
