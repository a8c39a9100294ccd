// A small builder for the scenarios translated from upstream's Job integration tests
// (test/integration/job/job_test.go). It only plays the world around the controller — the test
// creating, updating and deleting objects, and the pods the controller creates appearing — and
// writes the checkpoints the upstream test asserts. It never asks jobfold what to expect.

export const UPSTREAM = 'kubernetes/kubernetes@003e86297d18a8538c9da3619871393f9703bf70 test/integration/job/job_test.go';
const BASE = Date.parse('2026-01-01T00:00:00Z');
export const TRACKING = 'batch.kubernetes.io/job-tracking';
export const INDEX = 'batch.kubernetes.io/job-completion-index';
export const FAILURE_COUNT = 'batch.kubernetes.io/job-index-failure-count';
/** The upstream tests' own finalizer that keeps deleted pods around (`blockDeletionFinalizerForTest`). */
export const BLOCK = 'fake.example.com/blockDeletion';
/** Longer than every recreation backoff these tests reach, shorter than the 5-minute expectations. */
export const SETTLE = 290;

export const iso = (seconds: number) => new Date(BASE + seconds * 1000).toISOString().replace('.000Z', 'Z');

type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

interface SimPod {
  name: string;
  index: number | undefined;
  phase: Phase;
  ready: boolean;
  finalizers: string[];
  annotations: Record<string, string>;
  deletionTimestamp: string | null;
  conditions: { type: string; status: string }[];
  containerStatuses: unknown[];
  createdAt: string;
}

export interface StoryMeta {
  slug: string;
  test: string;
  case?: string;
  description: string;
  spec: Record<string, unknown>;
  notes?: string;
}

export type Expect = Record<string, unknown>;

export class Story {
  readonly events: Record<string, unknown>[] = [];
  readonly checkpoints: { afterEvent: number; expect: Expect }[] = [];
  private readonly pods = new Map<string, SimPod>();
  private serial = 0;
  private spec: Record<string, unknown>;
  t = 0;
  readonly meta: StoryMeta;

  constructor(meta: StoryMeta) {
    this.meta = meta;
    this.spec = structuredClone(meta.spec);
  }

  /** Moves the clock forward; events added next share this time (one snapshot, one sync). */
  after(seconds: number): this {
    this.t += seconds;
    return this;
  }

  tick(): this {
    this.events.push({ type: 'Tick', at: iso(this.t) });
    return this;
  }

  expect(expect: Expect): this {
    this.checkpoints.push({ afterEvent: this.events.length - 1, expect });
    return this;
  }

  /** The pods the controller created appear (Pending, with its finalizer and annotations). */
  created(what: number | number[], annotations: (index: number | undefined) => Record<string, string> = () => ({})): string[] {
    const indexes = typeof what === 'number' ? Array.from({ length: what }, () => undefined) : what;
    const templateFinalizers = (this.template()['metadata'] as { finalizers?: string[] } | undefined)?.finalizers ?? [];
    return indexes.map((index) => {
      const n = this.serial++;
      const name = index === undefined ? `test-job-${String(n).padStart(3, '0')}` : `test-job-${index}-${n}`;
      const pod: SimPod = {
        name,
        index,
        phase: 'Pending',
        ready: false,
        finalizers: [...templateFinalizers, TRACKING],
        annotations: index === undefined ? {} : { [INDEX]: String(index), ...annotations(index) },
        deletionTimestamp: null,
        conditions: [],
        containerStatuses: [],
        createdAt: iso(this.t),
      };
      this.pods.set(name, pod);
      this.emit(pod);
      return name;
    });
  }

  /** Names of the pods that are not terminal, in name order (the API's list order). */
  active(index?: number): string[] {
    return [...this.pods.values()]
      .filter((p) => p.phase !== 'Succeeded' && p.phase !== 'Failed')
      .filter((p) => index === undefined || p.index === index)
      .map((p) => p.name)
      .sort();
  }

  /** `setJobPodsPhase` / `setJobPhaseForIndex`: a terminated container finishing now. */
  finish(
    name: string,
    phase: 'Succeeded' | 'Failed',
    extra: { exitCode?: number; containerName?: string; conditions?: { type: string; status: string }[]; noContainers?: boolean } = {},
  ): this {
    return this.update(name, (p) => {
      p.phase = phase;
      p.ready = false;
      p.containerStatuses = extra.noContainers ? [] : [
        {
          name: extra.containerName ?? this.containerName(),
          restartCount: 0,
          state: { terminated: { exitCode: extra.exitCode ?? 0, finishedAt: iso(this.t) } },
        },
      ];
      if (extra.conditions) p.conditions = extra.conditions;
    });
  }

  finishIndex(index: number, phase: 'Succeeded' | 'Failed', extra?: Parameters<Story['finish']>[2]): this {
    const name = this.active(index)[0];
    if (!name) throw new Error(`${this.meta.slug}: no active pod for index ${index}`);
    return this.finish(name, phase, extra);
  }

  finishSome(count: number, phase: 'Succeeded' | 'Failed'): this {
    const names = this.active().slice(0, count);
    if (names.length < count) throw new Error(`${this.meta.slug}: only ${names.length} active pods`);
    for (const name of names) this.finish(name, phase);
    return this;
  }

  ready(count: number): this {
    for (const name of this.active().filter((n) => !this.pods.get(n)?.ready).slice(0, count)) {
      this.update(name, (p) => {
        p.phase = 'Running';
        p.ready = true;
      });
    }
    return this;
  }

  update(name: string, change: (pod: SimPod) => void): this {
    const pod = this.pods.get(name);
    if (!pod) throw new Error(`${this.meta.slug}: no pod ${name}`);
    change(pod);
    this.emit(pod);
    return this;
  }

  /** The controller removed its tracking finalizer (it counted the pod, or deletes it uncounted). */
  untracked(name: string): this {
    const pod = this.pods.get(name);
    if (!pod) throw new Error(`${this.meta.slug}: no pod ${name}`);
    pod.finalizers = pod.finalizers.filter((f) => f !== TRACKING);
    return this;
  }

  /** A DELETE that a finalizer holds back: the pod gets its deletionTimestamp. */
  markDeleted(name: string): this {
    return this.update(name, (p) => {
      p.deletionTimestamp = iso(this.t);
    });
  }

  /** The pod is gone from the API (no finalizer holds it any more). */
  gone(name: string): this {
    const pod = this.pods.get(name);
    if (!pod) throw new Error(`${this.meta.slug}: no pod ${name}`);
    this.pods.delete(name);
    this.events.push({ type: 'PodDeleted', at: iso(this.t), uid: name });
    return this;
  }

  /** `updateJob`: the test edits the Job's spec. */
  updateJob(change: (spec: Record<string, unknown>) => void): this {
    change(this.spec);
    this.events.push({ type: 'Job', at: iso(this.t), job: this.job(this.spec) });
    return this;
  }

  scenario(): Record<string, unknown> {
    const { slug, test, description, notes } = this.meta;
    return {
      id: slug,
      source: `${UPSTREAM} ${test}${this.meta.case === undefined ? '' : `/"${this.meta.case}"`}`,
      description,
      job: this.job(this.meta.spec),
      events: this.events,
      checkpoints: this.checkpoints,
      ...(notes ? { notes } : {}),
    };
  }

  private job(spec: Record<string, unknown>) {
    return {
      metadata: { namespace: 'default', name: 'test-job', uid: 'job-uid', creationTimestamp: iso(0) },
      spec: structuredClone(spec),
      status: {},
    };
  }

  private template(): Record<string, unknown> {
    return (this.spec['template'] as Record<string, unknown> | undefined) ?? {};
  }

  private containerName(): string {
    const spec = this.template()['spec'] as { containers?: { name: string }[] } | undefined;
    return spec?.containers?.[0]?.name ?? 'foo';
  }

  private emit(pod: SimPod): void {
    const conditions = [...pod.conditions];
    if (pod.ready) conditions.push({ type: 'Ready', status: 'True' });
    this.events.push({
      type: 'Pod',
      at: iso(this.t),
      pod: {
        metadata: {
          name: pod.name,
          namespace: 'default',
          uid: pod.name,
          creationTimestamp: pod.createdAt,
          annotations: { ...pod.annotations },
          deletionTimestamp: pod.deletionTimestamp,
          finalizers: [...pod.finalizers],
        },
        status: { phase: pod.phase, conditions, containerStatuses: pod.containerStatuses, initContainerStatuses: [] },
      },
    });
  }
}

/** `createJobWithDefaults`: a container `foo` and restartPolicy Never unless the test sets them. */
export function template(extra: { finalizers?: string[]; containerName?: string } = {}): Record<string, unknown> {
  return {
    ...(extra.finalizers ? { metadata: { finalizers: extra.finalizers } } : {}),
    spec: { restartPolicy: 'Never', containers: [{ name: extra.containerName ?? 'foo', image: extra.containerName ? 'foo' : 'bar' }] },
  };
}

/** Counters as `validateJobPodsStatus` compares them (ready and terminating are asserted as 0 unless given). */
export function counts(c: { active?: number; failed?: number; succeeded?: number; ready?: number; terminating?: number | null }): Expect {
  const status: Expect = {
    active: c.active ?? 0,
    failed: c.failed ?? 0,
    succeeded: c.succeeded ?? 0,
    ready: c.ready ?? 0,
  };
  if (c.terminating !== null) status['terminating'] = c.terminating ?? 0;
  return status;
}

export const has = (type: string, reason?: string) => ({ type, status: 'True', ...(reason ? { reason } : {}) });
