import { HOSTILE_CASES, VALID } from '../service/hostile-events.ts';

// The hostile-input suite's cases (issue 14, "Tests and figures"): each with the path a client
// would use and the outcome expected. `refused`: refused with a reason (the bus's ErrorMessage,
// ingest's rejection, or a 4xx with a message); `handled`: stored, or answered 2xx.

export type Category = 'envelope' | 'detail' | 'logic' | 'query';
export type Expected = 'refused' | 'handled';

/** What goes on the wire: a PutEvents entry (SDK), a raw HTTP request, or a query GET. */
export type Probe =
  | { readonly kind: 'entry'; readonly entry: { Source: string; DetailType: string; Detail: string } }
  | { readonly kind: 'raw'; readonly path: string; readonly body: string; readonly headers: Record<string, string> }
  | { readonly kind: 'get'; readonly path: string };

export interface HostileCase {
  readonly name: string;
  readonly category: Category;
  readonly probe: Probe;
  readonly expected: Expected;
}

const LONE = '\uD800';
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const entryOf = (event: { source: string; 'detail-type': string; detail: unknown }, detailText?: string): Probe => ({
  kind: 'entry',
  entry: { Source: event.source, DetailType: event['detail-type'], Detail: detailText ?? JSON.stringify(event.detail) },
});
type Event = { source: string; 'detail-type': string; detail: any };
const base = (kind: keyof typeof VALID, eventId: string): Event => {
  const event = clone(VALID[kind]) as unknown as Event;
  event.detail.eventId = eventId;
  // A pod of its own per case: the single writer drops an unchanged replay of a pod it already
  // folded (docs/data-model.md, "Writing a batch"), so every case names a new pod to be stored.
  if (kind.startsWith('pod') && event.detail.object?.metadata?.uid) event.detail.object.metadata.uid = `${event.detail.object.metadata.uid}-${eventId.length}-${serial}`;
  return event;
};

let serial = 0;
const id = (label: string) => `hostile-${label}-${++serial}`;

/** A detail case: the valid event of `kind`, with `mutate` applied to its detail. */
function detailCase(name: string, kind: keyof typeof VALID, mutate: (detail: any) => void, expected: Expected): HostileCase {
  const event = base(kind, id('d'));
  mutate(event.detail);
  return { name, category: 'detail', probe: entryOf(event), expected };
}

// 1. The service suite's hostile events (test/integration/service/hostile-events.ts), sent with
//    PutEvents: those whose source routes to ingest and whose detail is an object (the others
//    are envelope breaks that PutEvents cannot carry; the bus writes its own envelope).
const fromServiceSuite: HostileCase[] = HOSTILE_CASES.flatMap((c) => {
  let event: unknown;
  try {
    event = JSON.parse(c.body);
  } catch {
    return [];
  }
  const e = event as Partial<Event> | null;
  if (!e || typeof e !== 'object' || Array.isArray(e) || typeof e.source !== 'string' || typeof e['detail-type'] !== 'string') return [];
  if (!e.source.startsWith('jobfold.cluster.') || typeof e.detail !== 'object' || e.detail === null || Array.isArray(e.detail)) return [];
  if (typeof c.path === 'string' && !/^(detail|source|detail-type)/.test(c.path)) return [];
  // On the envelope, a __proto__ key cannot go through PutEvents: the bus writes the envelope.
  if (c.name === 'a __proto__ key on the event') return [];
  const detailText = c.body.includes('"__proto__"') || c.name.includes('1e400') || c.name.includes('nested')
    ? rawDetailText(c.body)
    : JSON.stringify(e.detail);
  const category: Category = typeof c.path === 'string' && c.path.startsWith('detail') ? 'detail' : 'envelope';
  return [{ name: `service suite: ${c.name}`, category, probe: entryOf(e as Event, detailText), expected: 'refused' as const }];
});

/** The detail's JSON text as written in the body (keeps __proto__ keys, 1e400, and depth). */
function rawDetailText(body: string): string {
  const start = body.indexOf('"detail":') + '"detail":'.length;
  let depth = 0;
  let inString = false;
  for (let i = start; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return body.slice(start, i + 1);
    }
  }
  return body.slice(start);
}

// 2. The envelope as a PutEvents client can break it.
const envelope: HostileCase[] = [
  ...['jobfold.cluster.UPPER', 'jobfold.cluster.', 'jobfold.cluster.a#b', 'jobfold.cluster.a/b', 'jobfold.cluster.a b',
    `jobfold.cluster.${'a'.repeat(64)}`, 'jobfold.cluster.a..b', `jobfold.cluster.a${LONE}`, 'jobfold.cluster.-a', 'jobfold.cluster.a-']
    .map((source): HostileCase => ({ name: `source "${source.slice(0, 40)}"`, category: 'envelope', expected: 'refused',
      probe: entryOf({ ...base('podObserved', id('src')), source }) })),
  ...['Pod Exploded', 'Job observed', 'JOB OBSERVED', 'Pod Observed ', ' Pod Observed', 'Pod\u0000Observed', '__proto__', 'hasOwnProperty', 'toString', 'Job Condition Changed']
    .map((detailType): HostileCase => ({ name: `detail-type "${detailType}"`, category: 'envelope', expected: 'refused',
      probe: entryOf({ ...base('podObserved', id('dt')), 'detail-type': detailType }) })),
  ...[
    ['a Detail that is not JSON', '{"eventId": '],
    ['a Detail that is an array', '[]'],
    ['a Detail that is a string', '"x"'],
    ['a Detail that is null', 'null'],
    ['a Detail nested 1001 levels', `${'{"a":'.repeat(1001)}1${'}'.repeat(1001)}`],
    ['a Detail nested 100,000 levels', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`],
    ['a Detail over 256 KiB', JSON.stringify({ eventId: 'x', pad: 'x'.repeat(270_000) })],
  ].map(([name, detail]): HostileCase => ({ name: name!, category: 'envelope', expected: 'refused',
    probe: { kind: 'entry', entry: { Source: 'jobfold.cluster.cluster-a', DetailType: 'Pod Observed', Detail: detail! } } })),
  ...[
    ['a PutEvents request that is not JSON', '{"Entries": ['],
    ['a PutEvents request without Entries', '{}'],
    ['a PutEvents request with 11 entries', JSON.stringify({ Entries: Array.from({ length: 11 }, () => ({ Source: 'jobfold.cluster.a', DetailType: 'Pod Observed', Detail: '{}' })) })],
    ['a PutEvents request with Entries as an object', '{"Entries": {"0": {}}}'],
    ['a PutEvents request with an empty Entries list', '{"Entries": []}'],
  ].map(([name, body]): HostileCase => ({ name: name!, category: 'envelope', expected: 'refused',
    probe: { kind: 'raw', path: '/events', body: body!, headers: { 'x-amz-target': 'AWSEvents.PutEvents', 'content-type': 'application/x-amz-json-1.1' } } })),
];

// 3. The detail: Unicode, sizes at and past each limit, control characters, prototype keys,
//    duplicate keys, numbers at int32/int64/float edges.
const euro = (n: number) => '€'.repeat(n);
const detail: HostileCase[] = [
  ...(['namespace', 'name', 'uid'] as const).map((field) => detailCase(`a lone surrogate in metadata.${field}`, 'podObserved', (d) => { d.object.metadata[field] = `x${LONE}`; }, 'refused')),
  detailCase('a lone surrogate in the eventId', 'podObserved', (d) => { d.eventId = `e${LONE}`; }, 'refused'),
  detailCase('a lone low surrogate in the eventId', 'podObserved', (d) => { d.eventId = `\uDC00e`; }, 'refused'),
  detailCase('a lone surrogate in an annotation value', 'podObserved', (d) => { d.object.metadata.annotations = { note: `x${LONE}` }; }, 'refused'),
  detailCase('a lone surrogate in an annotation key', 'podObserved', (d) => { d.object.metadata.annotations = { [`k${LONE}`]: 'x' }; }, 'refused'),
  detailCase('a lone surrogate in the owner uid', 'podObserved', (d) => { d.object.metadata.ownerReferences[0].uid = `u${LONE}`; }, 'refused'),
  detailCase('a lone surrogate in a container name', 'podObserved', (d) => { d.object.status.containerStatuses[0].name = `c${LONE}`; }, 'refused'),
  detailCase('a lone surrogate in a status message', 'podObserved', (d) => { d.object.status.message = `m${LONE}`; }, 'refused'),
  detailCase('a lone surrogate in a Job label value', 'jobObserved', (d) => { d.object.metadata.labels = { a: `v${LONE}` }; }, 'refused'),
  detailCase('a lone surrogate in a Job Deleted uid', 'jobDeleted', (d) => { d.object.metadata.uid = `u${LONE}`; }, 'refused'),
  detailCase('an eventId of exactly 512 bytes', 'podObserved', (d) => { d.eventId = `${euro(170)}${id('ab').slice(-2)}`; }, 'handled'),
  detailCase('an eventId of 513 bytes in 173 characters', 'podObserved', (d) => { d.eventId = `${euro(170)}abc`; }, 'refused'),
  detailCase('an eventId of 256 ASCII characters', 'podObserved', (d) => { d.eventId = `${id('max')}`.padEnd(256, 'x'); }, 'handled'),
  detailCase('an eventId of 257 characters', 'podObserved', (d) => { d.eventId = 'e'.repeat(257); }, 'refused'),
  detailCase('an eventId of 256 characters but 768 bytes', 'podObserved', (d) => { d.eventId = euro(256); }, 'refused'),
  detailCase('an eventId with NUL and escape characters', 'podObserved', (d) => { d.eventId = `${id('ctl')}\u0000\u001b[31m`; }, 'handled'),
  detailCase('an eventId with #, / and %', 'podObserved', (d) => { d.eventId = `${id('sep')}#/%23`; }, 'handled'),
  detailCase('an eventId that is whitespace', 'podObserved', (d) => { d.eventId = `   ${serial++}`; }, 'handled'),
  detailCase('an annotation of 200 KB', 'podObserved', (d) => { d.object.metadata.annotations = { note: 'x'.repeat(200_000) }; }, 'handled'),
  detailCase('an annotation key "constructor"', 'podObserved', (d) => { d.object.metadata.annotations = { constructor: 'x', prototype: 'y', hasOwnProperty: 'z' }; }, 'handled'),
  detailCase('a container name of 63 characters', 'podObserved', (d) => { d.object.status.containerStatuses[0].name = 'c'.repeat(63); }, 'handled'),
  detailCase('a container name of 64 characters', 'podObserved', (d) => { d.object.status.containerStatuses[0].name = 'c'.repeat(64); }, 'refused'),
  detailCase('a container name of 150,000 characters', 'podObserved', (d) => { d.object.status.containerStatuses[0].name = 'c'.repeat(150_000); }, 'refused'),
  detailCase('a status message of 100 KB', 'podObserved', (d) => { d.object.status.message = 'm'.repeat(100_000); }, 'handled'),
  detailCase('a pod condition type of 318 characters', 'podObserved', (d) => { d.object.status.conditions = [{ type: 't'.repeat(318), status: 'True' }]; }, 'refused'),
  detailCase('an exit code of int32 max', 'podObserved', (d) => { d.object.status.containerStatuses[0].state = { terminated: { exitCode: 2147483647 } }; }, 'handled'),
  detailCase('an exit code of int32 min', 'podObserved', (d) => { d.object.status.containerStatuses[0].state = { terminated: { exitCode: -2147483648 } }; }, 'handled'),
  detailCase('an exit code of int32 max + 1', 'podObserved', (d) => { d.object.status.containerStatuses[0].state = { terminated: { exitCode: 2147483648 } }; }, 'refused'),
  detailCase('an exit code of 0.5', 'podObserved', (d) => { d.object.status.containerStatuses[0].state = { terminated: { exitCode: 0.5 } }; }, 'refused'),
  detailCase('a restart count of 2^53', 'podObserved', (d) => { d.object.status.containerStatuses[0].restartCount = 2 ** 53; }, 'refused'),
  detailCase('a restart count of 1e308', 'podObserved', (d) => { d.object.status.containerStatuses[0].restartCount = 1e308; }, 'refused'),
  // int64 max is valid upstream; JSON reads it as 2^63 and jobfold keeps it as 2^53 − 1 (schema-helpers.ts).
  detailCase('a deletionGracePeriodSeconds of int64 max (as JSON reads it)', 'podObserved', (d) => { d.object.metadata.deletionGracePeriodSeconds = 9223372036854775807; }, 'handled'),
  detailCase('a deletionGracePeriodSeconds of 1e19 (past int64)', 'podObserved', (d) => { d.object.metadata.deletionGracePeriodSeconds = 1e19; }, 'refused'),
  detailCase('a completions of int32 max + 1', 'jobObserved', (d) => { d.object.spec.completions = 2147483648; }, 'refused'),
  detailCase('a parallelism of -2^31 - 1', 'jobObserved', (d) => { d.object.spec.parallelism = -2147483649; }, 'refused'),
  detailCase('an activeDeadlineSeconds of 2^63 (int64 max as JSON reads it)', 'jobObserved', (d) => { d.object.spec.activeDeadlineSeconds = 2 ** 63; }, 'handled'),
  detailCase('an activeDeadlineSeconds of 2^64 (past int64)', 'jobObserved', (d) => { d.object.spec.activeDeadlineSeconds = 2 ** 64; }, 'refused'),
  detailCase('a generation of 2^53 + 2', 'jobObserved', (d) => { d.object.metadata.generation = 2 ** 53 + 2; }, 'handled'),
  detailCase('an observedAt in year 10000', 'podObserved', (d) => { d.observedAt = '+010000-01-01T00:00:00Z'; }, 'refused'),
  detailCase('an observedAt with a leap second', 'podObserved', (d) => { d.observedAt = '2026-06-30T23:59:60Z'; }, 'refused'),
  detailCase('a Job name of 254 characters', 'jobObserved', (d) => { d.object.metadata.name = 'n'.repeat(254); }, 'refused'),
  detailCase('a Job uid of 129 characters', 'jobObserved', (d) => { d.object.metadata.uid = 'u'.repeat(129); }, 'refused'),
  detailCase('a pod owned through the controller-uid label of 200 characters', 'podObserved', (d) => {
    delete d.object.metadata.ownerReferences; d.object.metadata.labels = { 'batch.kubernetes.io/controller-uid': 'u'.repeat(200) };
  }, 'refused'),
  detailCase('65 owner references', 'podObserved', (d) => { d.object.metadata.ownerReferences = Array.from({ length: 65 }, () => d.object.metadata.ownerReferences[0]); }, 'refused'),
  detailCase('a detail 33 levels deep', 'podObserved', (d) => { d.object.metadata.annotations = undefined; d.extra = JSON.parse(`${'{"a":'.repeat(30)}1${'}'.repeat(30)}`); }, 'refused'),
  detailCase('a __proto__ annotation (JSON.parse makes it an own key)', 'podObserved', (d) => { d.object.metadata.annotations = JSON.parse('{"__proto__":"x"}'); }, 'refused'),
  {
    name: 'duplicate eventId keys in the Detail (the last one wins, as in JSON.parse)', category: 'detail', expected: 'handled',
    probe: entryOf(base('podObserved', 'first'), JSON.stringify(base('podObserved', id('dup')).detail).replace(/^\{/, '{"eventId":"ignored",')),
  },
  {
    name: 'duplicate object keys in the Detail', category: 'detail', expected: 'handled',
    probe: entryOf(base('jobObserved', 'x'), JSON.stringify(base('podObserved', id('dupobj')).detail).replace(/^\{/, '{"object":{},')),
  },
  detailCase('a Pod Deleted with a lone surrogate in its name', 'podDeleted', (d) => { d.object.metadata.name = `p${LONE}`; }, 'refused'),
  detailCase('a Pod Deleted for a pod never seen', 'podDeleted', (d) => { d.object.metadata.uid = id('ghost'); }, 'handled'),
  detailCase('a Job Deleted for a Job never seen', 'jobDeleted', (d) => { d.object.metadata.uid = id('ghost-job'); }, 'handled'),
];

// 3b. The ingest stream's partition key (`detail.partitionKey`, the bus rule's PartitionKeyPath):
//     Kinesis takes 1 to 256 characters. A key it refuses makes the rule's target fail; the
//     dead-letter triage then refuses the event with the writer's reasons (issue 14: refused,
//     never dead-lettered). A key it takes is stored, whatever its bytes.
const withKey = (name: string, key: unknown, expected: Expected) =>
  detailCase(`a partitionKey ${name}`, 'podObserved', (d) => { d.partitionKey = key; }, expected);
const partitionKeys: HostileCase[] = [
  withKey('of 256 ASCII characters', 'k'.repeat(256), 'handled'),
  withKey('of 257 ASCII characters (past Kinesis\'s limit)', 'k'.repeat(257), 'refused'),
  withKey('of 256 three-byte characters (768 bytes)', euro(256), 'handled'),
  withKey('of 257 three-byte characters', euro(257), 'refused'),
  withKey('of 256 astral characters (1,024 bytes, 512 UTF-16 units)', '\u{1F600}'.repeat(256), 'handled'),
  withKey('of 257 astral characters', '\u{1F600}'.repeat(257), 'refused'),
  withKey('of 100,000 characters', 'k'.repeat(100_000), 'refused'),
  withKey('that is empty', '', 'refused'),
  withKey('that is missing (keyed by the event id)', undefined, 'handled'),
  withKey('that is a number', 42, 'refused'),
  withKey('that is an object', { uid: 'x' }, 'refused'),
  withKey('that is null', null, 'refused'),
  withKey('with a lone surrogate', `k${LONE}`, 'refused'),
  withKey('of 257 characters ending in a lone surrogate', `${'k'.repeat(256)}${LONE}`, 'refused'),
];

// 4. Logic: valid events whose values stress the fold (each for a Job of its own). All are
//    stored, and the Job must stay decidable (GET 200, not stalled).
export interface LogicCase extends HostileCase {
  /** The Job's uid and name, to read it back. */
  readonly job: { readonly uid: string; readonly name: string };
  /** Events before the case's own (the Job, running pods), sent first. */
  readonly setup: readonly Probe[];
}

function jobEvent(uid: string, name: string, spec: Record<string, unknown>, status?: unknown, eventId = `${uid}/job`): Event {
  const event = clone(VALID.jobObserved) as unknown as Event;
  event.detail.eventId = eventId;
  event.detail.object.metadata.uid = uid;
  event.detail.object.metadata.name = name;
  event.detail.object.spec = { ...event.detail.object.spec, ...spec };
  if (status !== undefined) event.detail.object.status = status;
  return event;
}

function podEvent(jobUid: string, jobName: string, pod: string, phase: string, extra: (d: any) => void = () => undefined): Event {
  const event = clone(VALID.podObserved) as unknown as Event;
  event.detail.eventId = `${jobUid}/${pod}/${phase}`;
  event.detail.object.metadata.name = pod;
  event.detail.object.metadata.uid = `${jobUid}-${pod}`;
  event.detail.object.metadata.ownerReferences = [{ apiVersion: 'batch/v1', kind: 'Job', name: jobName, uid: jobUid, controller: true }];
  event.detail.object.status.phase = phase;
  extra(event.detail);
  return event;
}

function logicCase(name: string, spec: Record<string, unknown>, last: (uid: string, jobName: string) => Event, status?: unknown): LogicCase {
  const uid = id('logic');
  const jobName = `logic-${serial}`;
  const setup = [entryOf(jobEvent(uid, jobName, spec, status)), entryOf(podEvent(uid, jobName, 'a', 'Running'))];
  return { name, category: 'logic', expected: 'handled', job: { uid, name: jobName }, setup, probe: entryOf(last(uid, jobName)) };
}

const INT32_MAX = 2147483647;
const logic: LogicCase[] = [
  logicCase('activeDeadlineSeconds 1e13 (issue 14 §1)', { activeDeadlineSeconds: 1e13 }, (u, n) => podEvent(u, n, 'b', 'Running')),
  logicCase('activeDeadlineSeconds 2^53 - 1', { activeDeadlineSeconds: Number.MAX_SAFE_INTEGER }, (u, n) => podEvent(u, n, 'b', 'Running')),
  logicCase('activeDeadlineSeconds int64 max', { activeDeadlineSeconds: 9223372036854775807 }, (u, n) => podEvent(u, n, 'b', 'Running')),
  logicCase('activeDeadlineSeconds 1 (passes at once)', { activeDeadlineSeconds: 1 }, (u, n) => podEvent(u, n, 'b', 'Running')),
  logicCase('completions and parallelism int32 max', { completions: INT32_MAX, parallelism: INT32_MAX }, (u, n) => podEvent(u, n, 'b', 'Succeeded')),
  logicCase('backoffLimit int32 max, a failed pod', { backoffLimit: INT32_MAX }, (u, n) => podEvent(u, n, 'b', 'Failed')),
  logicCase('backoffLimit 0, a failed pod', { backoffLimit: 0 }, (u, n) => podEvent(u, n, 'b', 'Failed')),
  logicCase('a refused update: completionMode changed (issue 14 §2)', { completions: 2, parallelism: 2 },
    (u, n) => jobEvent(u, n, { completions: 2, parallelism: 2, completionMode: 'Indexed' }, undefined, `${u}/job-indexed`)),
  logicCase('a refused update then a failed pod under backoffLimit 0', { backoffLimit: 0 },
    (u, n) => jobEvent(u, n, { backoffLimit: 0, completionMode: 'Indexed', completions: 1 }, undefined, `${u}/job-bad`)),
  logicCase('a Job whose creation is refused (negative parallelism)', { parallelism: -1 }, (u, n) => podEvent(u, n, 'b', 'Running')),
  logicCase('a Job status with a 150,000-character condition message', {},
    (u, n) => podEvent(u, n, 'b', 'Running'),
    { conditions: [{ type: 'Suspended', status: 'False', reason: 'R', message: 'm'.repeat(150_000) }] }),
  logicCase('a FailJob rule matched by a 63-character container', { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] } },
    (u, n) => podEvent(u, n, 'b', 'Failed', (d) => { d.object.status.containerStatuses = [{ name: 'c'.repeat(63), state: { terminated: { exitCode: 42 } } }]; })),
  logicCase('a pod failing with exit code int32 min', { backoffLimit: 6 },
    (u, n) => podEvent(u, n, 'b', 'Failed', (d) => { d.object.status.containerStatuses = [{ name: 'main', state: { terminated: { exitCode: -2147483648 } } }]; })),
  logicCase('a pod with 256 container statuses', {},
    (u, n) => podEvent(u, n, 'b', 'Running', (d) => { d.object.status.containerStatuses = Array.from({ length: 256 }, (_, i) => ({ name: `c${i}` })); })),
  logicCase('a pod deleted with a deletionGracePeriodSeconds of 2^53 - 1', {},
    (u, n) => podEvent(u, n, 'a', 'Running', (d) => { d.eventId += '/deleting'; d.object.metadata.deletionTimestamp = '2026-01-01T00:00:10Z'; d.object.metadata.deletionGracePeriodSeconds = Number.MAX_SAFE_INTEGER; })),
  logicCase('a pod observed at year 9999', {}, (u, n) => podEvent(u, n, 'b', 'Running', (d) => { d.observedAt = '9999-12-31T23:59:59Z'; })),
  logicCase('a pod observed at year 0001', {}, (u, n) => podEvent(u, n, 'b', 'Running', (d) => { d.observedAt = '0001-01-01T00:00:00Z'; })),
  logicCase('suspend with activeDeadlineSeconds 1e13', { suspend: true, activeDeadlineSeconds: 1e13 }, (u, n) => podEvent(u, n, 'b', 'Running')),
  logicCase('Indexed, completions 100000, backoffLimitPerIndex int32 max', { completionMode: 'Indexed', completions: 100000, parallelism: 100, backoffLimitPerIndex: INT32_MAX, maxFailedIndexes: 100000 },
    (u, n) => podEvent(u, n, 'b', 'Failed', (d) => { d.object.metadata.annotations = { 'batch.kubernetes.io/job-completion-index': '99999' }; })),
  logicCase('a pod with a completion index past int32', { completionMode: 'Indexed', completions: 2, parallelism: 2 },
    (u, n) => podEvent(u, n, 'b', 'Running', (d) => { d.object.metadata.annotations = { 'batch.kubernetes.io/job-completion-index': '99999999999999999999' }; })),
  logicCase('the same pod event delivered again', {}, (u, n) => podEvent(u, n, 'a', 'Running')),
];

// 5. The query API and the local routes: malformed and forged parameters.
const JOB = '/v1/clusters/cluster-a/namespaces/default/jobs/healthy';
const query: HostileCase[] = [
  ['/v1/jobs?limit=-1', 'refused'], ['/v1/jobs?limit=0', 'refused'], ['/v1/jobs?limit=abc', 'refused'], ['/v1/jobs?limit=1e9', 'refused'],
  ['/v1/jobs?limit=1.5', 'refused'], ['/v1/jobs?limit=', 'refused'], ['/v1/jobs?cursor=garbage', 'refused'], ['/v1/jobs?cursor=%ZZ', 'refused'],
  [`/v1/jobs?cursor=${'A'.repeat(5000)}`, 'refused'], ['/v1/jobs?cursor=eyJwayI6eyJTIjoieCJ9fQ', 'refused'], ['/v1/jobs?limt=5', 'refused'],
  ['/v1/jobs?cluster=%ED%A0%80', 'refused'], ['/v1/jobs?cluster=cluster-a&cluster=other', 'refused'], ['/v1/jobs?__proto__=1', 'refused'],
  ['/v1/jobs?constructor=1', 'refused'], ['/v1/jobs?cluster=cluster-a', 'handled'], ['/v1/jobs?limit=1', 'handled'],
  [`${JOB}/status?at=yesterday`, 'refused'], [`${JOB}/status?at=-1`, 'refused'], [`${JOB}/status?at=1e400`, 'refused'],
  [`${JOB}/history?after=-1`, 'refused'], [`${JOB}/history?limit=x`, 'refused'], [`${JOB}?uid=%ED%A0%80`, 'refused'],
  ['/v1/clusters/%ZZ/namespaces/default/jobs/healthy', 'refused'], ['/v1/clusters/cluster-a/namespaces/%ED%A0%80/jobs/x', 'refused'],
  [`/v1/clusters/cluster-a/namespaces/default/jobs/${'n'.repeat(10_000)}`, 'refused'], ['/v1/clusters/cluster-a/namespaces/default/jobs/no-such-job', 'refused'],
  [JOB, 'handled'], [`${JOB}/explain`, 'handled'], [`${JOB}/history`, 'handled'],
  ['/local/%ZZ', 'refused'], ['/local/clusters/%E0%A4%A/commands', 'refused'], ['/local/rejected/%', 'refused'], ['/local/rejected', 'handled'],
].map(([path, expected]): HostileCase => ({ name: `GET ${path!.slice(0, 80)}`, category: 'query', expected: expected as Expected, probe: { kind: 'get', path: path! } }));

export const CASES: readonly HostileCase[] = [...fromServiceSuite, ...envelope, ...detail, ...partitionKeys, ...logic, ...query];
export const LOGIC_CASES: readonly LogicCase[] = logic;
export { jobEvent, podEvent, entryOf };
