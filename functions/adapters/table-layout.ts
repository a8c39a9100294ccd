// The one DynamoDB table of the event store, as plain data: local/dynamodb-local.ts passes it
// to CreateTable and cdk/ defines the same table from it. Constants and key builders only.
//
// Items (pk = stream key "<kind>#<clusterId>#<namespace>#<uid>" unless noted):
//   log entry   sk "e#<seq, 12 digits>"   the event; seq is unique because the key is
//   log page    sk "e#<first seq>"        t "page": entries first..last compressed together
//                                         (log-page-codec.ts); shares the positions' key space
//   marker      sk "id#<eventId>"         claims an eventId for one seq (idempotent append)
//   summary     sk "summary"              fleet row; the only item in the summary indexes
//   snapshot    sk "snapshot#<seq>"       the state at seq, kept (inline, or pointer to chunks)
//   chunk       sk "chunk#<seq>#<i>"      part i of a snapshot too large for one item
//   pod         sk "pod#<pod uid>"        a settled pod archived out of the snapshot (older format)
//   pods        sk "pods#<bucket>#<save>#<part>"  settled pods archived by one save, packed
//   ids         sk "ids#<last seq>"       eventId fingerprints of positions `from`+1…last (dynamodb-event-ids.ts)
//   command     pk "cmd#<commandId>", sk "cmd"   outbox item; in the outbox index while pending
//   detail      pk "cmd#<commandId>", sk "detail#<hash>"   a large outbox item's detail, beside it (dynamodb-outbox.ts)
//   claim       pk "uid#<kind>#<clusterId>#<uid>", sk "claim"   the namespace whose log holds that uid
// Every log item (entry or page) also carries the keys of the change index (gw, gv): which logs
// of a cluster grew and when, for readers that follow the fleet (shared/log/change-feed.ts).
// Attribute `t` names the item type, so stream consumers can filter on it.

/** Table name used when no name is configured (DynamoDB Local, tests). */
export const DEFAULT_TABLE_NAME = 'jobfold-events';

export const ITEM_TYPE = {
  entry: 'entry',
  page: 'page',
  marker: 'marker',
  summary: 'summary',
  snapshot: 'snapshot',
  chunk: 'chunk',
  pod: 'pod',
  podBatch: 'pods',
  eventIds: 'ids',
  uidClaim: 'claim',
  command: 'command',
  commandDetail: 'detail',
} as const;

/** Attribute names; short, because names count towards item size and so towards WCU. */
export const ATTR = {
  pk: 'pk',
  sk: 'sk',
  type: 't',
  seq: 'seq', // of a log entry; of a log page, its first entry
  lastSeq: 'ls', // of a log page, its last entry
  lastHash: 'lh', // of a log page, its last entry's chain hash (read with the head)
  prevHash: 'ph', // of a log page, the chain hash it chains on from (its entries' hashes are computed when read)
  hashTags: 'ht', // of a log page, B: the first 4 bytes of each entry's chain hash
  firstSightings: 'fs', // of a log page, B: bit i set when entry first + i is a pod's first sighting
  pageForm: 'pf', // of a log page, N: how its entries are stored (log-page-codec.ts PAGE_FORM; absent: form 1)
  eventId: 'id',
  eventType: 'et',
  observedAt: 'oa',
  recordedAt: 'ra',
  body: 'b', // S: JSON text, or B: brotli-compressed JSON when `z` is "br"
  encoding: 'z',
  writer: 'w', // nonce of the append call that wrote the item (tells a retry from a duplicate)
  data: 'd', // JSON text of the summary, command, snapshot or archived pod; a log page's entries (B)
  claimedBy: 'cb', // of a uid claim: the namespace
  chunks: 'n',
  publishedAt: 'pa',
  progress: 'pr', // events of a pending outbox item already published
  detailBeside: 'dx', // of an outbox item whose detail is in a detail item: that item's sort key
  // summary index keys and projected filter fields
  fleetKey: 'gf',
  clusterKey: 'gc',
  namespaceKey: 'gn',
  nameKey: 'gm',
  createdKey: 'gk',
  kind: 'k',
  namespace: 'ns',
  conditionType: 'ct',
  conditionStatus: 'cs', // with `ct`, `cr` and `fa`: what the fleet's counts read
  conditionReason: 'cr',
  attention: 'fa', // `-`, or `s` stalled and/or `r` refused update; on every summary written since
  summaryHead: 'hd', // of a summary: the log position it shows (put after its commit, never over a later one's)
  // outbox index keys, removed once published
  pendingKey: 'gp',
  pendingSort: 'gq',
  // change index keys, on every log item (dynamodb-change-feed.ts)
  changeKey: 'gw',
  changeSort: 'gv',
} as const;

export const INDEX = {
  fleet: 'summary-fleet',
  cluster: 'summary-cluster',
  namespace: 'summary-namespace',
  name: 'summary-name',
  pending: 'outbox-pending',
  changes: 'log-changes',
} as const;

/** Partition key value of the fleet index (every summary) and of the outbox index. */
export const FLEET_KEY = 'fleet';
export const PENDING_KEY = 'pending';
const SEQ_DIGITS = 12;
/**
 * Partitions of the change index per kind and cluster: a log item's goes by a hash of its uid,
 * so one cluster's writes spread over 16 index partitions (each takes 1,000 writes a second).
 */
export const CHANGE_BUCKETS = 16;

type StreamKeyParts = { kind: string; clusterId: string; namespace: string; uid: string };

// encodeURIComponent keeps '#' out of key parts; Kubernetes names and uids pass unchanged.
const part = (value: string): string => encodeURIComponent(value);

export const keys = {
  stream: (s: StreamKeyParts): string => [s.kind, s.clusterId, s.namespace, s.uid].map(part).join('#'),
  entry: (seq: number): string => `e#${String(seq).padStart(SEQ_DIGITS, '0')}`,
  entryPrefix: 'e#',
  marker: (eventId: string): string => `id#${eventId}`,
  summary: 'summary',
  snapshot: (seq: number): string => `snapshot#${String(seq).padStart(SEQ_DIGITS, '0')}`,
  /** Sorts after every snapshot key: the upper bound of "the newest snapshot". */
  snapshotEnd: 'snapshot#~',
  chunk: (seq: number, index: number): string => `chunk#${String(seq).padStart(SEQ_DIGITS, '0')}#${String(index).padStart(4, '0')}`,
  chunkPrefix: (seq: number): string => `chunk#${String(seq).padStart(SEQ_DIGITS, '0')}#`,
  pod: (uid: string): string => `pod#${uid}`,
  podBatch: (bucket: number, stamp: string, part: number): string =>
    `pods#${String(bucket).padStart(2, '0')}#${stamp}#${String(part).padStart(4, '0')}`,
  podBatchPrefix: (bucket: number): string => `pods#${String(bucket).padStart(2, '0')}#`,
  /** Every bucket of a Job's packed archive. */
  podBatchPrefixAll: 'pods#',
  /** A segment of the log's eventId fingerprints, by its last position (dynamodb-event-ids.ts). */
  eventIds: (to: number): string => `ids#${String(to).padStart(SEQ_DIGITS, '0')}`,
  eventIdsPrefix: 'ids#',
  /** The claim of an object's uid in its cluster by one namespace (pk; sk `claim`). */
  uidClaim: (s: { kind: string; clusterId: string; uid: string }): string => ['uid', s.kind, s.clusterId, s.uid].map(part).join('#'),
  uidClaimSort: 'claim',
  command: (commandId: string): string => `cmd#${commandId}`,
  commandSort: 'cmd',
  /** A large outbox item's detail, by a hash of its stored bytes (dynamodb-outbox.ts). */
  commandDetail: (hash: string): string => `detail#${hash}`,
  cluster: (clusterId: string): string => part(clusterId),
  namespace: (clusterId: string, ns: string): string => `${part(clusterId)}#${part(ns)}`,
  name: (kind: string, clusterId: string, ns: string, name: string): string =>
    `${kind}#${part(clusterId)}#${part(ns)}#${part(name)}`,
  /** Sort key of every summary index: newest first when read backwards. */
  created: (s: StreamKeyParts & { createdAt: string }): string =>
    [s.createdAt, s.uid, s.kind, part(s.clusterId), part(s.namespace)].join('#'),
  pendingSort: (createdAt: string, commandId: string): string => `${createdAt}#${commandId}`,
  /** Partition of the change index: kind, cluster and bucket (0 … CHANGE_BUCKETS − 1). */
  changePartition: (kind: string, clusterId: string, bucket: number): string => `${kind}#${part(clusterId)}#${String(bucket).padStart(2, '0')}`,
  /** Sort key of the change index: recorded time (epoch ms, 15 digits), namespace, uid, first seq. */
  changeSort: (recordedMs: number, namespace: string, uid: string, firstSeq: number): string =>
    `${String(recordedMs).padStart(15, '0')}#${part(namespace)}#${part(uid)}#${String(firstSeq).padStart(SEQ_DIGITS, '0')}`,
  /** The smallest change sort key recorded at or after `recordedMs`. */
  changeSince: (recordedMs: number): string => String(Math.max(0, recordedMs)).padStart(15, '0'),
} as const;

type KeyElement = { AttributeName: string; KeyType: 'HASH' | 'RANGE' };
type Projection = { ProjectionType: 'KEYS_ONLY' | 'INCLUDE' | 'ALL'; NonKeyAttributes?: string[] };

/** The parts of CreateTableInput the store needs, in the DynamoDB API's own shape. */
export type TableDefinition = {
  KeySchema: KeyElement[];
  AttributeDefinitions: { AttributeName: string; AttributeType: 'S' }[];
  GlobalSecondaryIndexes: { IndexName: string; KeySchema: KeyElement[]; Projection: Projection }[];
  BillingMode: 'PAY_PER_REQUEST';
  StreamSpecification: { StreamEnabled: boolean; StreamViewType: 'NEW_IMAGE' };
};

const key = (hash: string, range: string): KeyElement[] => [
  { AttributeName: hash, KeyType: 'HASH' },
  { AttributeName: range, KeyType: 'RANGE' },
];
// Filters read these; they change only when the latest condition type does, so ordinary
// summary updates (updatedAt) cost no index write.
const filtered = (): Projection => ({
  ProjectionType: 'INCLUDE',
  NonKeyAttributes: [ATTR.kind, ATTR.namespace, ATTR.conditionType],
});
// The fleet index also carries the latest condition's status and reason and the attention flags,
// so the console's counts read the index alone (functions/adapters/dynamodb-fleet-rows.ts); they
// change as rarely as the condition type.
const fleetRows = (): Projection => ({
  ProjectionType: 'INCLUDE',
  NonKeyAttributes: [ATTR.kind, ATTR.namespace, ATTR.conditionType, ATTR.conditionStatus, ATTR.conditionReason, ATTR.attention],
});
const keysOnly = (): Projection => ({ ProjectionType: 'KEYS_ONLY' });
const indexKeys = [ATTR.fleetKey, ATTR.clusterKey, ATTR.namespaceKey, ATTR.nameKey, ATTR.createdKey,
  ATTR.pendingKey, ATTR.pendingSort, ATTR.changeKey, ATTR.changeSort];

/** The table minus its name: on-demand, NEW_IMAGE stream, six sparse indexes. */
export const TABLE_DEFINITION: TableDefinition = {
  KeySchema: key(ATTR.pk, ATTR.sk),
  AttributeDefinitions: [ATTR.pk, ATTR.sk, ...indexKeys].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
  GlobalSecondaryIndexes: [
    { IndexName: INDEX.fleet, KeySchema: key(ATTR.fleetKey, ATTR.createdKey), Projection: fleetRows() },
    { IndexName: INDEX.cluster, KeySchema: key(ATTR.clusterKey, ATTR.createdKey), Projection: filtered() },
    { IndexName: INDEX.namespace, KeySchema: key(ATTR.namespaceKey, ATTR.createdKey), Projection: filtered() },
    { IndexName: INDEX.name, KeySchema: key(ATTR.nameKey, ATTR.createdKey), Projection: keysOnly() },
    { IndexName: INDEX.pending, KeySchema: key(ATTR.pendingKey, ATTR.pendingSort), Projection: keysOnly() },
    // The table's keys name the log and its item's first seq; a page's last seq comes along.
    { IndexName: INDEX.changes, KeySchema: key(ATTR.changeKey, ATTR.changeSort), Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [ATTR.lastSeq] } },
  ],
  BillingMode: 'PAY_PER_REQUEST',
  StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
};
