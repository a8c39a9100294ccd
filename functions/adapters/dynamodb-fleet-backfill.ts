import { ConditionalCheckFailedException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import type { JobSummary, StreamId } from '../../shared/log/event-store.ts';
import { readJson } from './item-codec.ts';
import { summaryItem } from './dynamodb-projection.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { ATTR, ITEM_TYPE } from './table-layout.ts';

// Rebuilds the attributes the summary indexes read (keys, kind, namespace, the latest
// condition's type/status/reason, the attention flags) on every summary item from the summary
// it holds, exactly as a commit writes them today (summaryItem). A stack whose summaries were
// written before an attribute existed (`cs`, `cr`, `fa` of the fleet index) gets them, so the
// index's rows are complete again. Idempotent: an item that already carries what summaryItem
// would write is left alone. Each update is conditioned on the summary being unchanged since
// the scan; a commit that lands in between wrote every attribute itself, so that item is skipped.

/** Scan segments read side by side. */
const SEGMENTS = 4;
/** Attributes summaryItem writes that are the summary itself or the item's key, never rebuilt. */
const KEPT: ReadonlySet<string> = new Set([ATTR.pk, ATTR.sk, ATTR.data, ATTR.encoding]);

/** What summaryItem derives from the summary: the index keys and the projected filter fields. */
const DERIVED: ReadonlySet<string> = new Set([
  ATTR.kind, ATTR.namespace, ATTR.conditionType, ATTR.conditionStatus, ATTR.conditionReason, ATTR.attention,
  ATTR.fleetKey, ATTR.clusterKey, ATTR.namespaceKey, ATTR.nameKey, ATTR.createdKey,
]);

export interface FleetBackfillReport {
  readonly summaries: number;
  readonly updated: number;
  readonly alreadyComplete: number;
  /** Summaries a commit rewrote between the scan and the update (they are complete). */
  readonly changedMeanwhile: number;
}

export async function backfillFleetIndex(table: MeteredTable, onProgress: (scanned: number) => void = () => {}): Promise<FleetBackfillReport> {
  const counts = { summaries: 0, updated: 0, alreadyComplete: 0, changedMeanwhile: 0 };
  await Promise.all(Array.from({ length: SEGMENTS }, async (_, segment) => {
    let start: Item | undefined;
    do {
      const output = await table.scan({
        Segment: segment,
        TotalSegments: SEGMENTS,
        FilterExpression: '#t = :summary',
        ExpressionAttributeNames: { '#t': ATTR.type },
        ExpressionAttributeValues: { ':summary': { S: ITEM_TYPE.summary } },
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      });
      for (const item of output.Items ?? []) {
        counts.summaries++;
        const outcome = await rebuild(table, item);
        counts[outcome]++;
      }
      onProgress(counts.summaries);
      start = output.LastEvaluatedKey;
    } while (start !== undefined);
  }));
  return counts;
}

async function rebuild(table: MeteredTable, item: Item): Promise<'updated' | 'alreadyComplete' | 'changedMeanwhile'> {
  const summary = readJson(item, ATTR.data) as JobSummary;
  const { kind, clusterId, namespace, uid, ...update } = summary;
  const stream: StreamId = { kind, clusterId, namespace, uid };
  const wanted = summaryItem(stream, update);
  const set = Object.entries(wanted).filter(([name, value]) => !KEPT.has(name) && !sameValue(item[name], value));
  // Only the attributes a summary item derives are removed (a condition's, once it is gone).
  const remove = Object.keys(item).filter((name) => DERIVED.has(name) && wanted[name] === undefined);
  if (set.length === 0 && remove.length === 0) return 'alreadyComplete';
  const names: Record<string, string> = { '#d': ATTR.data };
  const values: Record<string, AttributeValue> = { ':d': item[ATTR.data]! };
  set.forEach(([name, value], i) => { names[`#s${i}`] = name; values[`:s${i}`] = value; });
  remove.forEach((name, i) => { names[`#r${i}`] = name; });
  const clauses = [
    set.length > 0 ? `SET ${set.map((_, i) => `#s${i} = :s${i}`).join(', ')}` : '',
    remove.length > 0 ? `REMOVE ${remove.map((_, i) => `#r${i}`).join(', ')}` : '',
  ];
  try {
    await table.update({
      Key: { [ATTR.pk]: item[ATTR.pk]!, [ATTR.sk]: item[ATTR.sk]! },
      UpdateExpression: clauses.filter(Boolean).join(' '),
      ConditionExpression: '#d = :d',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
    return 'updated';
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return 'changedMeanwhile';
    throw error;
  }
}

function sameValue(a: AttributeValue | undefined, b: AttributeValue): boolean {
  return a !== undefined && a.S === b.S && a.N === b.N;
}
