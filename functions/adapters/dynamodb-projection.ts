import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { FindJobQuery, JobPage, JobSummary, ListJobsQuery, StreamId, SummaryUpdate } from '../../shared/log/event-store.ts';
import { checkLimit } from '../../shared/log/event-store-limits.ts';
import { shownByName } from '../../shared/log/name-rule.ts';
import { jsonAttributes, num, readJson, str } from './item-codec.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { ATTR, FLEET_KEY, INDEX, ITEM_TYPE, keys } from './table-layout.ts';

// The fleet view: one summary item per stream, in four sparse indexes that share the sort
// key "<createdAt>#<uid>#…" (read backwards: newest first). The indexes project only what the
// filters read (kind, namespace, latest condition type; the fleet index also the condition's
// status and reason and the attention flags, for the console's counts), so a summary update that changes none of them
// costs no index write; full summaries are then read from the table.

/** The summary item of a stream, with its index keys. */
export function summaryItem(stream: StreamId, update: SummaryUpdate): Item {
  const summary: JobSummary = { ...update, kind: stream.kind, clusterId: stream.clusterId, namespace: stream.namespace, uid: stream.uid };
  const condition = summary.latestCondition;
  return {
    [ATTR.pk]: str(keys.stream(stream)),
    [ATTR.sk]: str(keys.summary),
    [ATTR.type]: str(ITEM_TYPE.summary),
    ...jsonAttributes(ATTR.data, summary),
    [ATTR.kind]: str(summary.kind),
    [ATTR.namespace]: str(summary.namespace),
    ...(condition === undefined ? {} : {
      [ATTR.conditionType]: str(condition.type),
      [ATTR.conditionStatus]: str(condition.status),
      ...(condition.reason ? { [ATTR.conditionReason]: str(condition.reason) } : {}),
    }),
    [ATTR.attention]: str(`${summary.stalled ? 's' : ''}${summary.refusedUpdate ? 'r' : ''}` || '-'),
    [ATTR.fleetKey]: str(FLEET_KEY),
    [ATTR.clusterKey]: str(keys.cluster(summary.clusterId)),
    [ATTR.namespaceKey]: str(keys.namespace(summary.clusterId, summary.namespace)),
    [ATTR.nameKey]: str(keys.name(summary.kind, summary.clusterId, summary.namespace, summary.name)),
    [ATTR.createdKey]: str(keys.created(summary)),
  };
}

/**
 * Puts the summary of the log at `head` after the commit that made it (dynamodb-commit.ts):
 * outside the transaction a summary costs 1 write unit and 1 per index entry it changes, inside
 * it 2 and 2. It is a projection of the log, like a snapshot, so it need not land with it: it is
 * put only after the log holds `head`, and only over a summary of an earlier or the same position
 * (`hd`; summaries written before `hd` existed count as earlier), so writers that overtake each
 * other never leave an older one in place. A crash between the commit and this put leaves the
 * summary one commit behind until the writer puts it again (shared/decide/write-batch.ts).
 */
export async function putSummary(table: MeteredTable, stream: StreamId, update: SummaryUpdate, head: number): Promise<void> {
  try {
    await table.put({
      Item: { ...summaryItem(stream, update), [ATTR.summaryHead]: num(head) },
      ConditionExpression: 'attribute_not_exists(#hd) OR #hd <= :hd',
      ExpressionAttributeNames: { '#hd': ATTR.summaryHead },
      ExpressionAttributeValues: { ':hd': num(head) },
    });
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** listJobs of the port: query the narrowest index, filter, then read the page's summaries. */
export async function listJobs(table: MeteredTable, query: ListJobsQuery): Promise<JobPage> {
  checkLimit(query.limit);
  const plan = planQuery(query);
  const found: Item[] = [];
  let start = query.cursor === undefined ? undefined : decodeCursor(query.cursor, plan.hashAttr);
  // One item beyond the page tells whether a next page exists.
  do {
    const output = await table.query({
      IndexName: plan.index,
      KeyConditionExpression: '#hash = :hash',
      ...(plan.filter.length > 0 ? { FilterExpression: plan.filter.join(' AND ') } : {}),
      ExpressionAttributeNames: { '#hash': plan.hashAttr, ...plan.names },
      ExpressionAttributeValues: { ':hash': str(plan.hashValue), ...plan.values },
      ScanIndexForward: false,
      Limit: plan.filter.length > 0 ? Math.min(1000, 4 * (query.limit + 1)) : query.limit + 1 - found.length,
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    found.push(...(output.Items ?? []));
    start = output.LastEvaluatedKey;
  } while (start !== undefined && found.length <= query.limit);
  const page = found.slice(0, query.limit);
  const last = page.at(-1);
  const read = (await readSummaries(table, page)).filter(({ summary }) => matches(summary, query));
  return {
    items: read.map(({ summary }) => summary),
    after: read.map(({ key }) => encodeCursor(key, plan.hashAttr)),
    ...(found.length > query.limit && last ? { cursor: encodeCursor(last, plan.hashAttr) } : {}),
  };
}

/** Summaries read from the name index at a time, newest creationTimestamp first. */
const NAME_PAGE = 25;

/**
 * findJob of the port: by uid directly; else the object the name shows (shared/log/name-rule.ts)
 * among the summaries carrying the name, read from the name index newest first until one not
 * deleted was read and the index has gone past its creation time (nothing older can be shown
 * before it). `arrivedAt` (when a log began) is asked only of objects the rule cannot otherwise
 * tell apart.
 */
export async function findJob(table: MeteredTable, query: FindJobQuery, arrivedAt: (summary: JobSummary) => Promise<string | undefined>): Promise<JobSummary | undefined> {
  if (query.uid !== undefined) {
    const item = await table.get({ Key: { [ATTR.pk]: str(keys.stream({ ...query, uid: query.uid })), [ATTR.sk]: str(keys.summary) }, ConsistentRead: true });
    const summary = item === undefined ? undefined : (readJson(item, ATTR.data) as JobSummary);
    return summary?.name === query.name ? summary : undefined;
  }
  const candidates: JobSummary[] = [];
  let start: Item | undefined;
  do {
    const output = await table.query({
      IndexName: INDEX.name,
      KeyConditionExpression: '#hash = :hash',
      ExpressionAttributeNames: { '#hash': ATTR.nameKey },
      ExpressionAttributeValues: { ':hash': str(keys.name(query.kind, query.clusterId, query.namespace, query.name)) },
      ScanIndexForward: false,
      Limit: NAME_PAGE,
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    start = output.LastEvaluatedKey;
    const wanted = (output.Items ?? []).map((item) => ({ [ATTR.pk]: item[ATTR.pk] as { S: string }, [ATTR.sk]: str(keys.summary) }));
    const order = new Map(wanted.map((key, i) => [key[ATTR.pk].S, i]));
    const page = (await table.batchGet(wanted, true))
      .sort((a, b) => (order.get(a[ATTR.pk]?.S ?? '') ?? 0) - (order.get(b[ATTR.pk]?.S ?? '') ?? 0))
      .map((item) => readJson(item, ATTR.data) as JobSummary)
      .filter((summary) => summary.name === query.name);
    candidates.push(...page);
    const live = candidates.find((c) => !c.deleted);
    const oldest = page.at(-1);
    if (live && oldest && Date.parse(oldest.createdAt) < Date.parse(live.createdAt)) break;
  } while (start !== undefined);
  return shownByName(candidates, arrivedAt);
}

type Plan = { index: string; hashAttr: string; hashValue: string; filter: string[]; names: Record<string, string>; values: Item };

function planQuery(query: ListJobsQuery): Plan {
  const plan: Plan = { index: INDEX.fleet, hashAttr: ATTR.fleetKey, hashValue: FLEET_KEY, filter: [], names: {}, values: {} };
  const where = (attr: string, value: string | undefined): void => {
    if (value === undefined) return;
    plan.filter.push(`#${attr} = :${attr}`);
    plan.names[`#${attr}`] = attr;
    plan.values[`:${attr}`] = str(value);
  };
  if (query.clusterId !== undefined && query.namespace !== undefined) {
    Object.assign(plan, { index: INDEX.namespace, hashAttr: ATTR.namespaceKey, hashValue: keys.namespace(query.clusterId, query.namespace) });
  } else if (query.clusterId !== undefined) {
    Object.assign(plan, { index: INDEX.cluster, hashAttr: ATTR.clusterKey, hashValue: keys.cluster(query.clusterId) });
  } else {
    where(ATTR.namespace, query.namespace);
  }
  where(ATTR.kind, query.kind);
  where(ATTR.conditionType, query.condition);
  return plan;
}

async function readSummaries(table: MeteredTable, page: Item[]): Promise<{ key: Item; summary: JobSummary }[]> {
  const wanted = page.map((item) => ({ [ATTR.pk]: item[ATTR.pk] ?? str(''), [ATTR.sk]: str(keys.summary) }));
  const byPk = new Map((await table.batchGet(wanted, false)).map((item) => [item[ATTR.pk]?.S, item]));
  return page.flatMap((entry) => {
    const item = byPk.get(entry[ATTR.pk]?.S);
    return item === undefined ? [] : [{ key: entry, summary: readJson(item, ATTR.data) as JobSummary }];
  });
}

// The index may lag the table; a summary that no longer matches is left out.
function matches(s: JobSummary, query: ListJobsQuery): boolean {
  return (query.kind === undefined || s.kind === query.kind)
    && (query.clusterId === undefined || s.clusterId === query.clusterId)
    && (query.namespace === undefined || s.namespace === query.namespace)
    && (query.condition === undefined || s.latestCondition?.type === query.condition);
}

function encodeCursor(item: Item, hashAttr: string): string {
  const key = [ATTR.pk, ATTR.sk, hashAttr, ATTR.createdKey].map((name) => item[name]?.S ?? '');
  return Buffer.from(JSON.stringify([hashAttr, ...key]), 'utf8').toString('base64url');
}

/** The ExclusiveStartKey of a cursor; RangeError unless it was made for this index. */
function decodeCursor(cursor: string, hashAttr: string): Item {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 5 || !parsed.every((part) => typeof part === 'string')) {
    throw new RangeError('invalid listJobs cursor');
  }
  const [index, pk = '', sk = '', hash = '', created = ''] = parsed as string[];
  // DynamoDB answers a start key of another index (or an empty key part) with a ValidationException.
  if (index !== hashAttr || sk !== keys.summary || [pk, hash, created].some((part) => part === '')) {
    throw new RangeError('invalid listJobs cursor');
  }
  return { [ATTR.pk]: str(pk), [ATTR.sk]: str(sk), [hashAttr]: str(hash), [ATTR.createdKey]: str(created) };
}
