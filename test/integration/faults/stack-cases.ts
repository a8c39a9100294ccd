import { parseInbound } from '../../../shared/contract/parse-inbound.ts';
import type { LogEntry, StreamId } from '../../../shared/log/event-store.ts';
import { CONTROLLER_UID_LABEL } from '../../../shared/k8s/job-controller.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { aJob, aPod, withSpec } from '../../support/builders.ts';
import { jobDeletedEvent, jobObservedEvent, podDeletedEvent, podObservedEvent, type InboundEnvelope } from '../../support/inbound-events.ts';
import type { PutEntry } from './burst.ts';
import type { Outcome } from './fault-outcomes.ts';

// The fault suite's cases that run on one local stack (issue 24): identities and conflicting
// duplicates, each on Jobs of its own, sent with the EventBridge SDK client in steps (one
// PutEvents call a step, the service quiet between steps), then judged by what the API answers
// and what the log holds. Every case of a class varies the arrival order, the delivery (one call,
// separate calls, other events between) and the content.

export const CLUSTER = 'faults-stack';
const T = '2026-11-27T06:00:00Z';

/** What a judge may look at once every step was sent and the service is quiet. */
export interface StackProbe {
  get(path: string): Promise<{ status: number; body: any }>;
  log(stream: StreamId): Promise<readonly LogEntry[]>;
  /** Why the bus or ingest refused the events with this eventId (PutEvents ErrorMessage, /local/rejected reasons). */
  refusals(eventId: string): readonly string[];
}

/** One PutEvents call: its entries, or a function that stamps them when the call is sent (`now`, epoch ms). */
export type Step = readonly PutEntry[] | ((now: number) => readonly PutEntry[]);
/** A step's entries, stamped now if they are stamped when sent. */
export const stepEntries = (step: Step): readonly PutEntry[] => (typeof step === 'function' ? step(Date.now()) : step);

export interface StackCase {
  readonly fault: string;
  readonly name: string;
  readonly steps: readonly Step[];
  judge(probe: StackProbe): Promise<{ outcome: Outcome; detail: string }>;
}

let serial = 0;
export const uidOf = (label: string) => `${label}-${++serial}-${Date.now().toString(36)}`;
export const entry = (event: InboundEnvelope, mutate: (detail: any) => void = () => undefined): PutEntry => {
  const detail = structuredClone(event.detail) as any;
  // Keyed by the owning Job's uid, as a forwarder keys them: one Job's events stay in order.
  detail.partitionKey = detail.object.metadata.ownerReferences?.[0]?.uid ?? detail.object.metadata.uid;
  mutate(detail);
  return { Source: event.source, DetailType: event['detail-type'], Detail: JSON.stringify(detail) };
};
/** The object an observation's body carries (the writer may stamp the body beside it: arrival, order). */
const objectOf = (body: unknown): unknown => (body as { job?: unknown; pod?: unknown }).job ?? (body as { pod?: unknown }).pod ?? body;

/** The log body ingest makes of an entry (the same parse the service runs). */
function parsedBody(e: PutEntry): unknown {
  const parsed = parseInbound({ source: e.Source, 'detail-type': e.DetailType, detail: JSON.parse(e.Detail) });
  if (!parsed.ok) throw new Error(`a case's own event does not parse: ${JSON.stringify(parsed)}`);
  return parsed.targets[0]!.entry.body;
}
const eventIdOf = (e: PutEntry) => (JSON.parse(e.Detail) as { eventId: string }).eventId;
export const jobPath = (namespace: string, name: string) => `/v1/clusters/${CLUSTER}/namespaces/${namespace}/jobs/${name}`;
export const streamOf = (job: Job, namespace = 'default'): StreamId => ({ kind: 'Job', clusterId: CLUSTER, namespace, uid: job.metadata.uid! });
export const withMeta = (job: Job, meta: Partial<Job['metadata']>): Job => ({ ...job, metadata: { ...job.metadata, ...meta } });

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

// ---- identities ---------------------------------------------------------------------------

/** A name whose first Job was deleted and a second created: the live one shows, in every arrival order. */
function recreated(variant: string, firstCreated: string, secondCreated: string): StackCase[] {
  return permutations(['create first', 'delete first', 'create second'] as const).map((order) => {
    const name = `rerun-${++serial}`;
    const first = aJob({}, { name, uid: uidOf('first') });
    const second = aJob({}, { name, uid: uidOf('second') });
    const events = {
      'create first': entry(jobObservedEvent(withMeta(first, { creationTimestamp: firstCreated }), T, { clusterId: CLUSTER })),
      'delete first': entry(jobDeletedEvent(withMeta(first, { creationTimestamp: firstCreated }), T, { clusterId: CLUSTER })),
      'create second': entry(jobObservedEvent(withMeta(second, { creationTimestamp: secondCreated }), T, { clusterId: CLUSTER })),
    };
    return {
      fault: 'identity: a name reused', name: `${variant}; arrival: ${order.join(', ')}`,
      steps: order.map((step) => [events[step]]),
      judge: async (probe) => {
        const { status, body } = await probe.get(jobPath('default', name));
        const detail = `GET …/jobs/${name}: ${status} uid ${body?.job?.uid ?? '-'} deleted ${body?.deleted}`;
        if (status >= 500) return { outcome: 'crash', detail };
        return { outcome: status === 200 && body.job.uid === second.metadata.uid && !body.deleted ? 'handled' : 'wrong write', detail };
      },
    };
  });
}

/** A uid reused under another name: the first stays (spec and name), the other is refused with the reason. */
function uidUnderAnotherName(change: string, spec: Record<string, unknown>, podsBetween: boolean): StackCase {
  const uid = uidOf('reused');
  const first = aJob({ completions: 2, parallelism: 2 }, { name: `owner-${serial}`, uid });
  const other = withSpec(withMeta(first, { name: `imposter-${serial}` }), spec);
  const again = entry(jobObservedEvent(other, T, { clusterId: CLUSTER, eventId: `${uid}/imposter` }));
  const steps = [[entry(jobObservedEvent(first, T, { clusterId: CLUSTER }))]];
  if (podsBetween) steps.push([entry(podObservedEvent(aPod({ name: `${first.metadata.name}-a`, uid: `${uid}-a` }), first, T, { clusterId: CLUSTER }))]);
  steps.push([again]);
  return {
    fault: 'identity: a uid reused', name: `under another name, ${change}${podsBetween ? ', pods between' : ''}`,
    steps,
    judge: async (probe) => {
      const shown = await probe.get(jobPath('default', first.metadata.name));
      const imposter = await probe.get(jobPath('default', other.metadata.name));
      const refusals = probe.refusals(`${uid}/imposter`);
      const log = await probe.log(streamOf(first));
      const recorded = log.some((e) => e.type === 'ObservationRefused' && (e.body as { reason?: string }).reason === 'UidReused');
      const spec = shown.body?.spec;
      const unchanged = spec && spec.completions === 2 && spec.parallelism === 2 && spec.suspend === false && spec.backoffLimit === 6; // upstream's default
      const detail = `owner ${shown.status}, imposter ${imposter.status}, refusals ${refusals.join(' | ').slice(0, 160)}, recorded ${recorded}`;
      if (shown.status >= 500 || imposter.status >= 500) return { outcome: 'crash', detail };
      if (!unchanged || imposter.status !== 404) return { outcome: 'wrong write', detail: `${detail}; spec ${JSON.stringify(spec)}` };
      return { outcome: refusals.some((r) => /UidReused/.test(r)) && recorded ? 'refused with reason' : 'lost', detail };
    },
  };
}

/** A uid reused in another namespace: refused with the reason, no second log. */
function uidInAnotherNamespace(what: string, make: (job: Job, moved: Job) => InboundEnvelope, oneCall: boolean): StackCase {
  const uid = uidOf('moved');
  const job = aJob({}, { name: `stays-${serial}`, uid });
  const moved = withMeta(job, { namespace: 'team-b' });
  const first = entry(jobObservedEvent(job, T, { clusterId: CLUSTER }));
  const elsewhere = entry(make(job, moved), (d) => { d.eventId = `${uid}/elsewhere`; d.object.metadata.namespace = 'team-b'; });
  return {
    fault: 'identity: a uid reused', name: `in another namespace: ${what}${oneCall ? ' (in one PutEvents call)' : ''}`,
    steps: oneCall ? [[first, elsewhere]] : [[first], [elsewhere]],
    judge: async (probe) => {
      const second = await probe.log(streamOf(job, 'team-b'));
      const refusals = probe.refusals(`${uid}/elsewhere`);
      const own = await probe.get(jobPath('default', job.metadata.name));
      const detail = `team-b log ${second.length} entries, refusals ${refusals.join(' | ').slice(0, 160)}, own Job ${own.status}`;
      if (own.status >= 500) return { outcome: 'crash', detail };
      if (second.length > 0 || own.status !== 200) return { outcome: 'wrong write', detail };
      return { outcome: refusals.some((r) => /UidReused/.test(r)) ? 'refused with reason' : 'lost', detail };
    },
  };
}

/** An object event lacking a namespace: refused naming the field, nothing stored in `default`. */
function withoutNamespace(kind: string, make: (job: Job) => InboundEnvelope, how: string, mutate: (metadata: any) => void): StackCase {
  const uid = uidOf('nons');
  const job = aJob({}, { name: `nons-${serial}`, uid });
  const sent = entry(make(job), (d) => { d.eventId = `${uid}/nons`; mutate(d.object.metadata); });
  return {
    fault: 'identity: a namespace missing', name: `${kind} with ${how}`,
    steps: [[sent]],
    judge: async (probe) => {
      const refusals = probe.refusals(`${uid}/nons`);
      const stored = (await probe.log(streamOf(job))).length;
      const detail = `${refusals.join(' | ').slice(0, 200)}; stored under default: ${stored}`;
      if (stored > 0) return { outcome: 'wrong write', detail };
      return { outcome: refusals.some((r) => /namespace/.test(r)) ? 'refused with reason' : 'lost', detail };
    },
  };
}

/**
 * A pod Job `first` created, adopted by Job `second` (its controllerRef moved; its controller-uid
 * label still names `first`), while `first` fails. `first` ends Failed without terminating or
 * waiting on the pod (upstream's ClaimPods ignores a pod owned by someone else); `second` has it.
 * `after`: the adoption arrives after `first` asked for the pod's termination (the forwarder
 * refuses it: not `first`'s), which left `first` waiting for it forever before routing told it.
 */
function adoptedByAnotherJob(after: boolean, oneCall: boolean): StackCase {
  const first = aJob({ completions: 2, parallelism: 2, backoffLimit: 0 }, { name: `creator-${++serial}`, uid: uidOf('creator') });
  const second = aJob({ completions: 1, parallelism: 1 }, { name: `adopter-${serial}`, uid: uidOf('adopter') });
  const created = (name: string, options: Parameters<typeof aPod>[0] = {}) => {
    const pod = aPod({ name: `${first.metadata.name}-${name}`, uid: `${first.metadata.uid}-${name}`, ...options });
    return { ...pod, metadata: { ...pod.metadata, labels: { [CONTROLLER_UID_LABEL]: first.metadata.uid! } } };
  };
  const pod = (name: string, owner: Job, rv: string, options: Parameters<typeof aPod>[0] = {}) =>
    entry(podObservedEvent(created(name, { resourceVersion: rv, ...options }), owner, T, { clusterId: CLUSTER, eventId: `${first.metadata.uid}-${name}/${rv}` }));
  const gone = (name: string) => entry(podDeletedEvent(created(name), first, T, { clusterId: CLUSTER }));
  const start = [entry(jobObservedEvent(first, T, { clusterId: CLUSTER })), entry(jobObservedEvent(second, T, { clusterId: CLUSTER })), pod('a', first, '10'), pod('b', first, '11')];
  const adopt = [pod('b', second, '20')];
  const fail = [pod('a', first, '30', { phase: 'Failed' })];
  // Adopted first: `first` creates a replacement, `c`, which is terminated when it fails, and is gone.
  const replaced = [pod('c', first, '21')];
  const steps: PutEntry[][] = after ? [start, fail, adopt] : [start, adopt, replaced, fail, [gone('c')]];
  return {
    fault: 'identity: a pod adopted by another Job',
    name: `the adoption ${after ? 'after the Job asked to terminate the pod' : 'before the Job failed'}${oneCall ? ' (in one PutEvents call)' : ''}`,
    steps: oneCall ? [steps.flat()] : steps,
    judge: async (probe) => {
      const view = await probe.get(jobPath('default', first.metadata.name));
      const adopter = await probe.get(jobPath('default', second.metadata.name));
      const log = await probe.log(streamOf(first));
      const terminated = log.filter((e) => e.type === 'PodsTerminationRequested')
        .flatMap((e) => ((e.body as { pods?: { uid: string }[] }).pods ?? []).map((p) => p.uid));
      const conditions = (view.body?.status?.conditions ?? []).map((c: { type: string }) => c.type).join(',');
      const detail = `first: ${view.status} [${conditions}] terminating ${view.body?.status?.terminating}, asked to terminate ${terminated.join(' ') || 'none'}; second: ${adopter.status} active ${adopter.body?.status?.active}`;
      if (view.status >= 500 || adopter.status >= 500) return { outcome: 'crash', detail };
      if (!conditions.includes('Failed')) return { outcome: 'wedged', detail };
      // Sent in one call, the adoption (keyed by `second`) and the failure (by `first`) may be
      // written in either order, as on two shards: the Job may have asked to terminate the pod.
      const askedForB = terminated.includes(`${first.metadata.uid}-b`);
      const right = view.body.status.terminating === 0 && adopter.body?.status?.active === 1 && (after || oneCall || !askedForB);
      return { outcome: right ? 'handled' : 'wrong write', detail };
    },
  };
}

function identityCases(): StackCase[] {
  const pod = (job: Job) => aPod({ name: `${job.metadata.name}-p`, uid: `${job.metadata.uid}-p` });
  const kinds: [string, (job: Job) => InboundEnvelope][] = [
    ['Pod Deleted', (job) => podDeletedEvent(pod(job), job, T, { clusterId: CLUSTER })],
    ['Pod Observed', (job) => podObservedEvent(pod(job), job, T, { clusterId: CLUSTER })],
    ['Job Observed', (job) => jobObservedEvent(job, T, { clusterId: CLUSTER })],
    ['Job Deleted', (job) => jobDeletedEvent(job, T, { clusterId: CLUSTER })],
  ];
  const missing: [string, (m: any) => void][] = [
    ['no namespace', (m) => { delete m.namespace; }],
    ['an empty namespace', (m) => { m.namespace = ''; }],
    ['a null namespace', (m) => { m.namespace = null; }],
  ];
  const changes: [string, Record<string, unknown>][] = [
    ['suspend: true', { suspend: true }], ['completions 5', { completions: 5, parallelism: 2 }],
    ['parallelism 1', { parallelism: 1 }], ['backoffLimit 0', { backoffLimit: 0 }],
  ];
  return [
    ...recreated('deleted and recreated in the same second (TestImmediateJobRecreation)', T, T),
    ...recreated('the deleted Job\'s creationTimestamp in the future', '2099-01-01T00:00:00Z', T),
    ...recreated('the deleted Job\'s creationTimestamp year 9999', '9999-12-31T23:59:59Z', T),
    ...recreated('recreated a second later', T, '2026-11-27T06:00:01Z'),
    ...changes.flatMap(([change, spec]) => [false, true].map((between) => uidUnderAnotherName(change, spec, between))),
    ...kinds.flatMap(([kind, make]) => [false, true].map((oneCall) => uidInAnotherNamespace(kind, (job, moved) => make(kind.startsWith('Pod') ? job : moved), oneCall))),
    ...kinds.flatMap(([kind, make]) => missing.map(([how, mutate]) => withoutNamespace(kind, make, how, mutate))),
    ...[false, true].flatMap((after) => [false, true].map((oneCall) => adoptedByAnotherJob(after, oneCall))),
  ];
}

// ---- duplicates ---------------------------------------------------------------------------

type Delivery = 'one call' | 'separate calls' | 'other events between';

/** Two contents of one object event, under one eventId. */
interface Pair {
  readonly what: string;
  readonly make: (job: Job, variant: 0 | 1) => InboundEnvelope;
}

const PAIRS: readonly Pair[] = [
  { what: 'a pod Running, then Failed', make: (job, v) => podObservedEvent(aPod({ name: 'dup-p', uid: `${job.metadata.uid}-dup`, phase: v === 0 ? 'Running' : 'Failed' }), job, T) },
  { what: 'a pod Failed, then Running', make: (job, v) => podObservedEvent(aPod({ name: 'dup-p', uid: `${job.metadata.uid}-dup`, phase: v === 0 ? 'Failed' : 'Running' }), job, T) },
  { what: 'a pod Succeeded, then Failed', make: (job, v) => podObservedEvent(aPod({ name: 'dup-p', uid: `${job.metadata.uid}-dup`, phase: v === 0 ? 'Succeeded' : 'Failed' }), job, T) },
  { what: 'a pod Running, then Running and ready', make: (job, v) => podObservedEvent(aPod({ name: 'dup-p', uid: `${job.metadata.uid}-dup`, ...(v === 1 ? { ready: T } : {}) }), job, T) },
  { what: 'a pod Failed with exit code 1, then 42', make: (job, v) => podObservedEvent(aPod({ name: 'dup-p', uid: `${job.metadata.uid}-dup`, phase: 'Failed', exitCode: v === 0 ? 1 : 42 }), job, T) },
  { what: 'a pod Running, then being deleted', make: (job, v) => podObservedEvent(aPod({ name: 'dup-p', uid: `${job.metadata.uid}-dup`, ...(v === 1 ? { deletionTimestamp: T } : {}) }), job, T) },
  // (the first content is an update of the Job the case starts with: an unchanged Job is a replay of it)
  { what: 'a Job update, then the update suspended', make: (job, v) => jobObservedEvent(withSpec(job, { backoffLimit: 4, ...(v === 1 ? { suspend: true } : {}) }), T) },
  { what: 'a Job update, then the update with parallelism 1', make: (job, v) => jobObservedEvent(withSpec(job, { backoffLimit: 4, ...(v === 1 ? { parallelism: 1 } : {}) }), T) },
  { what: 'a Job update, then the update with a deadline of 1 s', make: (job, v) => jobObservedEvent(withSpec(job, { backoffLimit: 4, ...(v === 1 ? { activeDeadlineSeconds: 1 } : {}) }), T) },
];

/**
 * One eventId with two contents (`conflicting`), or the same content again (a replay): the first
 * stays; a conflict is recorded in the log once (ObservationRefused with both hashes) and every
 * copy refused with the reason; a replay is dropped. Either way the eventId is stored once.
 */
function duplicate(pair: Pair, delivery: Delivery, copies: number, conflicting: boolean): StackCase {
  const uid = uidOf('dup');
  const job = aJob({ completions: 2, parallelism: 2, backoffLimit: 3 }, { name: `dup-${serial}`, uid });
  const eventId = `${uid}/dup`;
  const asSent = (variant: 0 | 1) => entry(pair.make(job, variant), (d) => { d.eventId = eventId; d.object.metadata.namespace ??= 'default'; });
  const withCluster = (e: PutEntry): PutEntry => ({ ...e, Source: `jobfold.cluster.${CLUSTER}` });
  const first = withCluster(asSent(0));
  const copy = withCluster(asSent(conflicting ? 1 : 0));
  const setup = withCluster(entry(jobObservedEvent(job, T), (d) => { d.eventId = `${uid}/job`; }));
  const others = Array.from({ length: 3 }, (_, i) => withCluster(entry(podObservedEvent(aPod({ name: `o${i}`, uid: `${uid}-o${i}` }), job, T))));
  const copiesOf = Array.from({ length: copies }, () => copy);
  const steps: PutEntry[][] = delivery === 'one call' ? [[setup, first, ...copiesOf]]
    : delivery === 'separate calls' ? [[setup, first], ...copiesOf.map((c) => [c])]
      : [[setup, first], others, ...copiesOf.map((c) => [c])];
  return {
    fault: conflicting ? 'conflicting duplicates' : 'replayed duplicates',
    name: `${pair.what}${conflicting ? '' : ' (the same content)'}: ${copies} ${copies === 1 ? 'copy' : 'copies'}, ${delivery}`,
    steps,
    judge: async (probe) => {
      const log = await probe.log(streamOf(job));
      const stored = log.filter((e) => e.eventId === eventId);
      const records = log.filter((e) => e.type === 'ObservationRefused' && (e.body as { refusedEventId?: string }).refusedEventId === eventId);
      const refusals = probe.refusals(eventId);
      const firstBody = JSON.stringify(objectOf(parsedBody(first)));
      const conflict = records[0]?.body as { conflict?: { firstHash?: string; refusedHash?: string } } | undefined;
      const detail = `stored ${stored.length}×, ${records.length} record(s), ${refusals.length} refusal(s) ${refusals[0]?.slice(0, 120) ?? ''}`;
      if (stored.length > 1) return { outcome: 'duplicated', detail };
      if (stored.length === 0) return { outcome: 'lost', detail };
      const kept = JSON.stringify(objectOf(stored[0]!.body)) === firstBody;
      if (!kept) return { outcome: 'wrong write', detail: `${detail}; the stored body is not the first` };
      if (!conflicting) return { outcome: records.length === 0 && refusals.length === 0 ? 'handled' : 'wrong write', detail };
      if (records.length !== 1 || !conflict?.conflict?.firstHash || !conflict.conflict.refusedHash) return { outcome: records.length > 1 ? 'duplicated' : 'lost', detail };
      return { outcome: refusals.length === copies && refusals.every((r) => /ConflictingDuplicate/.test(r)) ? 'refused with reason' : 'lost', detail };
    },
  };
}

function duplicateCases(): StackCase[] {
  const deliveries: Delivery[] = ['one call', 'separate calls', 'other events between'];
  return PAIRS.flatMap((pair) => deliveries.flatMap((delivery) => [1, 3].flatMap((copies) => [true, false].map((conflicting) => duplicate(pair, delivery, copies, conflicting)))));
}

export const STACK_CASES: readonly StackCase[] = [...identityCases(), ...duplicateCases()];
export { eventIdOf };
