import type { FleetRow, JobSummary, StreamId } from '../../shared/log/event-store.ts';
import { readJson, str } from './item-codec.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { ATTR, INDEX, keys } from './table-layout.ts';

// The fleet's rows for the console's counts (fleetRows of the port): a parallel Scan of the
// fleet index, which holds every summary with its kind, namespace and latest condition's type,
// status and reason projected, so 10,000 Jobs are a few 1 MB pages read side by side instead
// of 10,000 summaries read in full. Rows written before the index carried the status, reason and
// attention flags (a table kept with `npm start -- --data`) are completed from their summaries.

/** Scan segments read side by side; each returns up to 1 MB a page. */
const SEGMENTS = 8;
const ROW_ATTRIBUTES = [ATTR.pk, ATTR.createdKey, ATTR.conditionType, ATTR.conditionStatus, ATTR.conditionReason, ATTR.attention];

export async function fleetRows(table: MeteredTable, kind?: StreamId['kind']): Promise<FleetRow[]> {
  const segments = await Promise.all(Array.from({ length: SEGMENTS }, (_, segment) => scanSegment(table, segment, kind)));
  const items = segments.flat().sort((a, b) => compare(sortKey(b), sortKey(a)));
  const incomplete = items.filter((item) => item[ATTR.attention] === undefined);
  const completed = new Map((await summariesOf(table, incomplete.map(streamOf))).map((s) => [keys.stream(s), s]));
  return items.map((item) => {
    const stream = streamOf(item);
    const createdAt = createdAtOf(item);
    const legacy = completed.get(keys.stream(stream));
    if (legacy) {
      const c = legacy.latestCondition;
      const latestCondition = c ? { type: c.type, status: c.status, ...(c.reason ? { reason: c.reason } : {}) } : undefined;
      return { ...stream, createdAt, ...(latestCondition ? { latestCondition } : {}), stalled: !!legacy.stalled, refusedUpdate: !!legacy.refusedUpdate };
    }
    const type = item[ATTR.conditionType]?.S;
    const reason = item[ATTR.conditionReason]?.S;
    const latestCondition = type === undefined ? undefined : { type, status: item[ATTR.conditionStatus]?.S ?? '', ...(reason ? { reason } : {}) };
    const attention = item[ATTR.attention]?.S ?? '';
    return { ...stream, createdAt, ...(latestCondition ? { latestCondition } : {}), stalled: attention.includes('s'), refusedUpdate: attention.includes('r') };
  });
}

/** getSummaries of the port: one BatchGetItem per 100 streams, in the order asked. */
export async function summariesOf(table: MeteredTable, streams: readonly StreamId[]): Promise<JobSummary[]> {
  if (streams.length === 0) return [];
  const wanted = streams.map((stream) => ({ [ATTR.pk]: str(keys.stream(stream)), [ATTR.sk]: str(keys.summary) }));
  const byPk = new Map((await table.batchGet(wanted, false)).map((item) => [item[ATTR.pk]?.S, item]));
  return streams.flatMap((stream) => {
    const item = byPk.get(keys.stream(stream));
    return item === undefined ? [] : [readJson(item, ATTR.data) as JobSummary];
  });
}

async function scanSegment(table: MeteredTable, segment: number, kind: StreamId['kind'] | undefined): Promise<Item[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const output = await table.scan({
      IndexName: INDEX.fleet,
      Segment: segment,
      TotalSegments: SEGMENTS,
      ProjectionExpression: ROW_ATTRIBUTES.map((name) => `#${name}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries([...ROW_ATTRIBUTES, ...(kind ? [ATTR.kind] : [])].map((name) => [`#${name}`, name])),
      ...(kind ? { FilterExpression: `#${ATTR.kind} = :kind`, ExpressionAttributeValues: { ':kind': str(kind) } } : {}),
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    items.push(...(output.Items ?? []));
    start = output.LastEvaluatedKey;
  } while (start !== undefined);
  return items;
}

/** The stream of a summary item, from its key "<kind>#<clusterId>#<namespace>#<uid>" (parts URI-encoded). */
function streamOf(item: Item): StreamId {
  const [kind = '', clusterId = '', namespace = '', uid = ''] = (item[ATTR.pk]?.S ?? '').split('#').map(decodeURIComponent);
  return { kind: kind as StreamId['kind'], clusterId, namespace, uid };
}

// The index's sort key "<createdAt>#<uid>#<kind>#<cluster>#<namespace>": ASCII, so string order
// is DynamoDB's byte order and the rows come out as listJobs lists them.
const sortKey = (item: Item): string => item[ATTR.createdKey]?.S ?? '';
const createdAtOf = (item: Item): string => sortKey(item).split('#')[0] ?? '';
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
