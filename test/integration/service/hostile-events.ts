import { aJob, aPod, anIndexedJob, T0 } from '../../support/builders.ts';
import { jobDeletedEvent, jobObservedEvent, podDeletedEvent, podObservedEvent } from '../../support/inbound-events.ts';

// Malformed and hostile inbound events, each as the SQS message body that would carry it, with
// the error (field path and message) ingest must refuse it with. Every case starts from a valid
// event and breaks one thing, so the refusal can only be for that thing.

export interface HostileCase {
  readonly name: string;
  readonly body: string;
  /** The path of the error that names the problem ('' for the whole event). */
  readonly path: string | RegExp;
  readonly message: RegExp;
}

const job = aJob({ completions: 2, parallelism: 2 }, { uid: 'hostile-job', name: 'hostile' });
const pod = aPod({ name: 'hostile-pod' });
const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Valid events of each detail-type, as plain JSON to break. */
export const VALID = {
  podObserved: json(podObservedEvent(pod, job, T0)),
  podDeleted: json(podDeletedEvent(pod, job, T0)),
  jobObserved: json(jobObservedEvent(job, T0)),
  jobDeleted: json(jobDeletedEvent(job, T0)),
};
type Valid = keyof typeof VALID;

const REMOVE = Symbol('remove');

/** The valid event of `kind` with the value at `path` (dot-separated) replaced or removed. */
function broken(kind: Valid, path: string, value: unknown): string {
  const event = json(VALID[kind]) as unknown as Record<string, unknown>;
  const keys = path.split('.');
  let target = event;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  const last = keys.at(-1) as string;
  if (value === REMOVE) delete target[last];
  else target[last] = value;
  return JSON.stringify(event);
}

/** A valid event's JSON text with raw JSON text spliced in as an extra field of `detail`. */
const withRawDetailField = (kind: Valid, key: string, raw: string): string =>
  JSON.stringify(VALID[kind]).replace(/"detail":\{/, `"detail":{"${key}":${raw},`);

/**
 * The valid event of `kind` with the forwarder's order stamp (docs/events.md, "Ordering"), whose
 * `key` is `raw`: JSON text spliced in as written, so an int64 such as 9223372036854775807 reaches
 * the parser as the cluster's JSON has it, not as JavaScript would print it.
 */
function stamped(kind: Valid, key: string, raw: string): string {
  const event = json(VALID[kind]) as unknown as { detail: Record<string, unknown> };
  const counts = kind.startsWith('pod') ? { jobSeq: 1 } : { jobSetSeq: 1 };
  event.detail['sequence'] = { epoch: 1795910400000, seq: 1, ...counts, [key]: '@STAMP@' };
  return JSON.stringify(event).replace('"@STAMP@"', raw);
}
const INT64_MAX = '9223372036854775807';
const PAST_SAFE = /<=9007199254740991/;

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const typeError = (expected: string) => new RegExp(`expected ${expected}`);
const SOURCE_MESSAGE = /must be "jobfold\.cluster\.<clusterId>"|DNS label/;
const NO_OWNER = /names no owning Job/;
const BAD_TIME = /Invalid ISO datetime/;
const MISSING = /received undefined/;
const SPOOFED = /taken from the event source/;
const TOO_BIG = /bytes; the limit is 262144/;
const NO_NAMESPACE = /^Required value: a namespaced object names its namespace/;

export const HOSTILE_CASES: readonly HostileCase[] = [
  // Not an EventBridge event at all
  { name: 'a message body that is not JSON', body: '{"source": "jobfold.cluster.a",', path: '', message: /not JSON/ },
  { name: 'an empty message body', body: '', path: '', message: /not JSON/ },
  { name: 'null', body: 'null', path: '', message: typeError('object') },
  { name: 'an array', body: JSON.stringify([VALID.podObserved]), path: '', message: typeError('object') },
  { name: 'a number', body: '42', path: '', message: typeError('object') },
  { name: 'a string', body: '"Pod Observed"', path: '', message: typeError('object') },
  { name: 'a boolean', body: 'true', path: '', message: typeError('object') },
  { name: 'an empty object', body: '{}', path: 'detail-type', message: typeError('string') },
  // The envelope
  { name: 'no source', body: broken('podObserved', 'source', REMOVE), path: 'source', message: typeError('string') },
  { name: 'a numeric source', body: broken('podObserved', 'source', 7), path: 'source', message: typeError('string') },
  { name: 'the control source', body: broken('podObserved', 'source', 'jobfold.control'), path: 'source', message: SOURCE_MESSAGE },
  { name: 'an AWS source', body: broken('podObserved', 'source', 'aws.events'), path: 'source', message: SOURCE_MESSAGE },
  { name: 'a cluster id in capitals', body: broken('podObserved', 'source', 'jobfold.cluster.Prod'), path: 'source', message: SOURCE_MESSAGE },
  { name: 'an empty cluster id', body: broken('podObserved', 'source', 'jobfold.cluster.'), path: 'source', message: SOURCE_MESSAGE },
  { name: 'a cluster id with a key separator', body: broken('podObserved', 'source', 'jobfold.cluster.a#Job'), path: 'source', message: SOURCE_MESSAGE },
  { name: 'an unknown detail-type', body: broken('podObserved', 'detail-type', 'Pod Exploded'), path: 'detail-type', message: /unknown detail-type "Pod Exploded"/ },
  { name: 'a detail-type in the wrong case', body: broken('podObserved', 'detail-type', 'pod observed'), path: 'detail-type', message: /unknown detail-type/ },
  { name: 'a prototype name as detail-type', body: broken('podObserved', 'detail-type', 'constructor'), path: 'detail-type', message: /unknown detail-type/ },
  { name: 'a numeric detail-type', body: broken('podObserved', 'detail-type', 1), path: 'detail-type', message: typeError('string') },
  { name: 'a numeric EventBridge time', body: broken('podObserved', 'time', 1767225600), path: 'time', message: typeError('string') },
  // The detail
  { name: 'no detail', body: broken('podObserved', 'detail', REMOVE), path: 'detail', message: MISSING },
  { name: 'a detail given as JSON text', body: broken('podObserved', 'detail', JSON.stringify(VALID.podObserved.detail)), path: 'detail', message: typeError('object') },
  { name: 'a detail that is an array', body: broken('podObserved', 'detail', []), path: 'detail', message: typeError('object') },
  { name: 'a cluster id spoofed in the payload', body: broken('podObserved', 'detail.clusterId', 'other-cluster'), path: 'detail.clusterId', message: SPOOFED },
  { name: 'a cluster spoofed in the payload of a Job', body: broken('jobObserved', 'detail.cluster', 'other-cluster'), path: 'detail.cluster', message: SPOOFED },
  { name: 'a source spoofed in the payload', body: broken('podDeleted', 'detail.source', 'jobfold.cluster.other'), path: 'detail.source', message: SPOOFED },
  { name: 'no eventId', body: broken('podObserved', 'detail.eventId', REMOVE), path: 'detail.eventId', message: typeError('string') },
  { name: 'an empty eventId', body: broken('podObserved', 'detail.eventId', ''), path: 'detail.eventId', message: />=1 characters/ },
  { name: 'a numeric eventId', body: broken('jobObserved', 'detail.eventId', 12), path: 'detail.eventId', message: typeError('string') },
  { name: 'an eventId of 300 characters', body: broken('podObserved', 'detail.eventId', 'e'.repeat(300)), path: 'detail.eventId', message: /<=256 characters/ },
  { name: 'no observedAt', body: broken('podObserved', 'detail.observedAt', REMOVE), path: 'detail.observedAt', message: MISSING },
  { name: 'an observedAt in words', body: broken('podObserved', 'detail.observedAt', 'yesterday'), path: 'detail.observedAt', message: BAD_TIME },
  { name: 'an observedAt in month 13', body: broken('jobObserved', 'detail.observedAt', '2026-13-01T00:00:00Z'), path: 'detail.observedAt', message: BAD_TIME },
  { name: 'an observedAt without offset', body: broken('podDeleted', 'detail.observedAt', '2026-01-01T00:00:00'), path: 'detail.observedAt', message: BAD_TIME },
  { name: 'an observedAt in epoch seconds', body: broken('podObserved', 'detail.observedAt', 1767225600), path: 'detail.observedAt', message: typeError('string') },
  { name: 'no object', body: broken('podObserved', 'detail.object', REMOVE), path: 'detail.object', message: typeError('object') },
  { name: 'a null object', body: broken('jobObserved', 'detail.object', null), path: 'detail.object', message: typeError('object') },
  // Pods
  { name: 'a pod without owner', body: broken('podObserved', 'detail.object.metadata.ownerReferences', REMOVE), path: 'detail.object.metadata.ownerReferences', message: NO_OWNER },
  { name: 'a pod owned by a ReplicaSet', body: broken('podObserved', 'detail.object.metadata.ownerReferences', [{ kind: 'ReplicaSet', uid: 'rs-1', controller: true }]), path: 'detail.object.metadata.ownerReferences', message: NO_OWNER },
  { name: 'a deleted pod without owner', body: broken('podDeleted', 'detail.object.metadata.ownerReferences', []), path: 'detail.object.metadata.ownerReferences', message: NO_OWNER },
  { name: 'an owner reference without uid', body: broken('podObserved', 'detail.object.metadata.ownerReferences', [{ kind: 'Job', controller: true }]), path: 'detail.object.metadata.ownerReferences.uid', message: /^metadata\.ownerReferences\.uid: Invalid value: "": uid must not be empty$/ },
  { name: 'a pod without uid', body: broken('podObserved', 'detail.object.metadata.uid', REMOVE), path: 'detail.object.metadata.uid', message: typeError('string') },
  { name: 'a deleted pod without uid', body: broken('podDeleted', 'detail.object.metadata.uid', REMOVE), path: 'detail.object.metadata.uid', message: typeError('string') },
  // Issue 24: without a namespace an event would reach a log its Job does not have ('default')
  { name: 'a deleted pod without namespace', body: broken('podDeleted', 'detail.object.metadata.namespace', REMOVE), path: 'detail.object.metadata.namespace', message: NO_NAMESPACE },
  { name: 'a deleted pod with an empty namespace', body: broken('podDeleted', 'detail.object.metadata.namespace', ''), path: 'detail.object.metadata.namespace', message: NO_NAMESPACE },
  { name: 'a pod without namespace', body: broken('podObserved', 'detail.object.metadata.namespace', REMOVE), path: 'detail.object.metadata.namespace', message: NO_NAMESPACE },
  { name: 'a Job without namespace', body: broken('jobObserved', 'detail.object.metadata.namespace', REMOVE), path: 'detail.object.metadata.namespace', message: NO_NAMESPACE },
  { name: 'a deleted Job without namespace', body: broken('jobDeleted', 'detail.object.metadata.namespace', REMOVE), path: 'detail.object.metadata.namespace', message: NO_NAMESPACE },
  { name: 'a pod without name', body: broken('podObserved', 'detail.object.metadata.name', REMOVE), path: 'detail.object.metadata.name', message: /^metadata\.name: Required value: name or generateName is required$/ },
  { name: 'a pod name with a NUL and a terminal escape', body: broken('podObserved', 'detail.object.metadata.name', 'a\u0000b\u001b[31m'), path: 'detail.object.metadata.name', message: /^metadata\.name: Invalid value: "a\\x00b\\x1b\[31m": a lowercase RFC 1123 subdomain/ },
  // The stored forms code a pod's name by its Job's `<job>-<index>-` (pod-field-codes.ts): a name
  // that is that prefix alone is no DNS subdomain; a name of 100 KB is refused with why, its
  // value cut from the middle of the message (functions/aws/fit-rejection.ts).
  { name: 'a pod name equal to its Job\'s <job>-<index>- prefix', body: broken('podObserved', 'detail.object.metadata.name', 'hostile-0-'), path: 'detail.object.metadata.name', message: /^metadata\.name: Invalid value: "hostile-0-": a lowercase RFC 1123 subdomain/ },
  { name: 'a pod name of 100 KB', body: broken('podObserved', 'detail.object.metadata.name', 'p'.repeat(100_000)), path: 'detail.object.metadata.name', message: /^metadata\.name: Invalid value: "p+… \(truncated: \d+ characters\) …p+": must be no more than 253 characters$/ },
  { name: 'a deleted pod\'s name of 100 KB', body: broken('podDeleted', 'detail.object.metadata.name', 'p'.repeat(100_000)), path: 'detail.object.metadata.name', message: /must be no more than 253 characters$/ },
  { name: 'a pod uid of 100 KB', body: broken('podObserved', 'detail.object.metadata.uid', 'u'.repeat(100_000)), path: 'detail.object.metadata.uid', message: /<=128 characters/ },
  { name: 'a pod uid of 129 astral characters', body: broken('podObserved', 'detail.object.metadata.uid', '😀'.repeat(129)), path: 'detail.object.metadata.uid', message: /<=128 characters/ },
  { name: 'a Job uid of 33 astral characters (132 bytes: it keys the Job\'s log)', body: broken('jobObserved', 'detail.object.metadata.uid', '😀'.repeat(33)), path: /^detail\.object\.metadata/, message: /the Job's uid is 132 bytes of UTF-8; at most 128 allowed/ },
  { name: 'a Job Deleted uid of 100 KB', body: broken('jobDeleted', 'detail.object.metadata.uid', 'u'.repeat(100_000)), path: 'detail.object.metadata.uid', message: /<=128 characters/ },
  { name: 'a label key that is no qualified name', body: broken('podObserved', 'detail.object.metadata.labels', { 'a b': 'x' }), path: 'detail.object.metadata.labels', message: /^metadata\.labels: Invalid value: "a b": name part must consist of alphanumeric characters/ },
  { name: 'a Job object in Pod Observed', body: broken('podObserved', 'detail.object.kind', 'Job'), path: 'detail.object.kind', message: /expected "Pod"/ },
  { name: 'an unknown pod phase', body: broken('podObserved', 'detail.object.status.phase', 'Exploded'), path: 'detail.object.status.phase', message: /expected one of/ },
  { name: 'container statuses as an object', body: broken('podObserved', 'detail.object.status.containerStatuses', { main: {} }), path: 'detail.object.status.containerStatuses', message: typeError('array') },
  { name: 'an exit code as text', body: broken('podObserved', 'detail.object.status.containerStatuses', [{ name: 'main', state: { terminated: { exitCode: '1' } } }]), path: 'detail.object.status.containerStatuses[0].state.terminated.exitCode', message: typeError('number') },
  { name: 'an exit code beyond int32', body: broken('podObserved', 'detail.object.status.containerStatuses', [{ name: 'main', state: { terminated: { exitCode: 2 ** 40 } } }]), path: 'detail.object.status.containerStatuses[0].state.terminated.exitCode', message: /<=2147483647/ },
  { name: 'a negative restart count', body: broken('podObserved', 'detail.object.status.containerStatuses', [{ name: 'main', restartCount: -1 }]), path: 'detail.object.status.containerStatuses[0].restartCount', message: />=0/ },
  { name: 'an exit code of 1e400 (Infinity once parsed)', body: broken('podObserved', 'detail.object.status.containerStatuses', [{ name: 'main', state: { terminated: { exitCode: 0 } } }]).replace('"exitCode":0', '"exitCode":1e400'), path: 'detail.object.status.containerStatuses[0].state.terminated.exitCode', message: /number/ },
  { name: 'a numeric label value', body: broken('podObserved', 'detail.object.metadata.labels', { team: 7 }), path: 'detail.object.metadata.labels.team', message: typeError('string') },
  { name: 'a bad deletionTimestamp', body: broken('podObserved', 'detail.object.metadata.deletionTimestamp', 'now'), path: 'detail.object.metadata.deletionTimestamp', message: BAD_TIME },
  { name: 'finalizers as an object', body: broken('podObserved', 'detail.object.metadata.finalizers', { 0: 'f0' }), path: 'detail.object.metadata.finalizers', message: typeError('array') },
  { name: 'a thousand container statuses', body: broken('podObserved', 'detail.object.status.containerStatuses', Array.from({ length: 1000 }, (_, i) => ({ name: `c${i}` }))), path: 'detail.object.status.containerStatuses', message: /<=256 items/ },
  // The forwarder's order stamp (issue 21: `sequence.jobSeq` on a pod's, `jobSetSeq` on a JobSet's
  // child Job's): counts from 1 and an epoch in ms, all within 2^53 - 1; a count past that could
  // not be told from its neighbour once parsed, so it is refused, never rounded.
  { name: 'a jobSeq of 0', body: stamped('podObserved', 'jobSeq', '0'), path: 'detail.sequence.jobSeq', message: />0/ },
  { name: 'a negative jobSeq', body: stamped('podObserved', 'jobSeq', '-1'), path: 'detail.sequence.jobSeq', message: />0/ },
  { name: 'a fractional jobSeq', body: stamped('podObserved', 'jobSeq', '1.5'), path: 'detail.sequence.jobSeq', message: typeError('int') },
  { name: 'a jobSeq of 2^53 + 1', body: stamped('podObserved', 'jobSeq', '9007199254740993'), path: 'detail.sequence.jobSeq', message: PAST_SAFE },
  { name: 'a jobSeq of int64 max', body: stamped('podObserved', 'jobSeq', INT64_MAX), path: 'detail.sequence.jobSeq', message: PAST_SAFE },
  { name: 'a jobSeq as text', body: stamped('podObserved', 'jobSeq', '"3"'), path: 'detail.sequence.jobSeq', message: typeError('number') },
  { name: 'a null jobSeq', body: stamped('podObserved', 'jobSeq', 'null'), path: 'detail.sequence.jobSeq', message: /expected number, received null/ },
  { name: 'a jobSeq of 1e400 (Infinity once parsed)', body: stamped('podObserved', 'jobSeq', '1e400'), path: 'detail.sequence.jobSeq', message: /number/ },
  { name: 'a negative jobSeq on a Pod Deleted', body: stamped('podDeleted', 'jobSeq', '-7'), path: 'detail.sequence.jobSeq', message: />0/ },
  { name: 'a seq of 0', body: stamped('podObserved', 'seq', '0'), path: 'detail.sequence.seq', message: />0/ },
  { name: 'a seq of int64 max', body: stamped('podObserved', 'seq', INT64_MAX), path: 'detail.sequence.seq', message: PAST_SAFE },
  { name: 'a negative epoch', body: stamped('podObserved', 'epoch', '-1'), path: 'detail.sequence.epoch', message: />=0/ },
  { name: 'an epoch of 2^53 + 1', body: stamped('podObserved', 'epoch', '9007199254740993'), path: 'detail.sequence.epoch', message: PAST_SAFE },
  { name: 'an epoch as an ISO time', body: stamped('podObserved', 'epoch', '"2026-11-29T00:00:00Z"'), path: 'detail.sequence.epoch', message: typeError('number') },
  { name: 'a stamp without epoch and seq', body: broken('podObserved', 'detail.sequence', { jobSeq: 3 }), path: 'detail.sequence.epoch', message: MISSING },
  { name: 'a stamp that is a number', body: broken('podObserved', 'detail.sequence', 7), path: 'detail.sequence', message: typeError('object') },
  { name: 'a jobSetSeq of 0', body: stamped('jobObserved', 'jobSetSeq', '0'), path: 'detail.sequence.jobSetSeq', message: />0/ },
  { name: 'a negative jobSetSeq', body: stamped('jobObserved', 'jobSetSeq', '-3'), path: 'detail.sequence.jobSetSeq', message: />0/ },
  { name: 'a jobSetSeq of 2^53 + 1', body: stamped('jobObserved', 'jobSetSeq', '9007199254740993'), path: 'detail.sequence.jobSetSeq', message: PAST_SAFE },
  { name: 'a jobSetSeq of int64 max', body: stamped('jobObserved', 'jobSetSeq', INT64_MAX), path: 'detail.sequence.jobSetSeq', message: PAST_SAFE },
  { name: 'a jobSetSeq as text', body: stamped('jobObserved', 'jobSetSeq', '"1"'), path: 'detail.sequence.jobSetSeq', message: typeError('number') },
  { name: 'a jobSetSeq of int64 max on a Job Deleted', body: stamped('jobDeleted', 'jobSetSeq', INT64_MAX), path: 'detail.sequence.jobSetSeq', message: PAST_SAFE },
  // Jobs
  { name: 'a Job without uid', body: broken('jobObserved', 'detail.object.metadata.uid', REMOVE), path: 'detail.object.metadata.uid', message: /uid/ },
  { name: 'a deleted Job without uid', body: broken('jobDeleted', 'detail.object.metadata.uid', REMOVE), path: 'detail.object.metadata.uid', message: typeError('string') },
  { name: 'a Job spec as a list', body: broken('jobObserved', 'detail.object.spec', []), path: 'detail.object.spec', message: typeError('object') },
  { name: 'a pod template as text', body: broken('jobObserved', 'detail.object.spec.template', 'none'), path: 'detail.object.spec.template', message: typeError('object') },
  { name: 'a parallelism as text', body: broken('jobObserved', 'detail.object.spec.parallelism', '2'), path: 'detail.object.spec.parallelism', message: typeError('number') },
  { name: 'fractional completions', body: broken('jobObserved', 'detail.object.spec.completions', 1.5), path: 'detail.object.spec.completions', message: typeError('int') },
  { name: 'a backoffLimit beyond int32', body: broken('jobObserved', 'detail.object.spec.backoffLimit', 2 ** 31), path: 'detail.object.spec.backoffLimit', message: /<=2147483647/ },
  { name: 'suspend as "yes"', body: broken('jobObserved', 'detail.object.spec.suspend', 'yes'), path: 'detail.object.spec.suspend', message: typeError('boolean') },
  { name: 'pod failure policy rules as an object', body: broken('jobObserved', 'detail.object.spec.podFailurePolicy', { rules: { 0: {} } }), path: 'detail.object.spec.podFailurePolicy.rules', message: typeError('array') },
  { name: 'exit code values as text', body: broken('jobObserved', 'detail.object.spec.podFailurePolicy', { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: ['42'] } }] }), path: 'detail.object.spec.podFailurePolicy.rules[0].onExitCodes.values[0]', message: typeError('number') },
  { name: 'a namespace of 100 characters', body: broken('jobObserved', 'detail.object.metadata.namespace', 'n'.repeat(100)), path: 'detail.object.metadata.namespace', message: /^metadata\.namespace: Invalid value: "n+": must be no more than 63 characters$/ },
  { name: 'a bad creationTimestamp', body: broken('jobObserved', 'detail.object.metadata.creationTimestamp', '01/01/2026'), path: 'detail.object.metadata.creationTimestamp', message: BAD_TIME },
  { name: 'a Job name with a NUL and a terminal escape', body: broken('jobObserved', 'detail.object.metadata.name', 'a\u0000b\u001b[31m'), path: 'detail.object.metadata.name', message: /^metadata\.name: Invalid value: "a\\x00b\\x1b\[31m"/ },
  // Size, depth, and keys that reach for the prototype
  { name: 'an event over 256 KiB', body: broken('podObserved', 'detail.object.metadata.annotations', { note: 'x'.repeat(300_000) }), path: '', message: TOO_BIG },
  { name: 'an event over 256 KiB of UTF-8 in fewer characters', body: broken('podObserved', 'detail.object.metadata.annotations', { a: '€'.repeat(50_000), b: '€'.repeat(50_000) }), path: '', message: TOO_BIG },
  { name: 'an event over 256 KiB once its control characters are escaped', body: broken('podObserved', 'detail.object.metadata.annotations', { a: '\u0001'.repeat(50_000) }), path: '', message: TOO_BIG },
  { name: 'a huge array', body: broken('jobObserved', 'detail.object.spec.template.spec.containers', Array.from({ length: 100_000 }, () => 0)), path: '', message: TOO_BIG },
  { name: 'detail nested 10,000 levels deep', body: withRawDetailField('podObserved', 'x', nested(10_000)), path: '', message: /nested deeper than/ },
  { name: 'arrays nested 10,000 levels deep', body: `${'['.repeat(10_000)}${']'.repeat(10_000)}`, path: '', message: /nested deeper than/ },
  { name: 'a __proto__ key on the event', body: JSON.stringify(VALID.podObserved).replace(/^\{/, '{"__proto__":{"polluted":true},'), path: /__proto__/, message: /./ },
  { name: 'a __proto__ key in the detail', body: withRawDetailField('jobObserved', '__proto__', '{"eventId":"injected"}'), path: /__proto__/, message: /./ },
  { name: 'a __proto__ label', body: JSON.stringify(VALID.podObserved).replace('"metadata":{', '"metadata":{"labels":{"__proto__":"x"},'), path: /__proto__/, message: /./ },
];
