import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { StreamId } from '../../shared/log/event-store.ts';
import { str } from './item-codec.ts';
import type { MeteredTable } from './metered-table.ts';
import { ATTR, ITEM_TYPE, keys } from './table-layout.ts';

// An object is its (cluster, uid) (issue 24): a log is keyed by its namespace too, so a uid
// reused under another namespace would start a second log of "the same" object. The writer
// claims the uid before a log's first entry: one item per (kind, cluster, uid) naming the
// namespace, put only if absent. The second namespace finds the first's claim and is refused.

export async function claimUid(table: MeteredTable, stream: StreamId): Promise<string> {
  const key = { [ATTR.pk]: str(keys.uidClaim(stream)), [ATTR.sk]: str(keys.uidClaimSort) };
  try {
    await table.put({
      Item: { ...key, [ATTR.type]: str(ITEM_TYPE.uidClaim), [ATTR.claimedBy]: str(stream.namespace) },
      ConditionExpression: 'attribute_not_exists(#pk) OR #cb = :ns',
      ExpressionAttributeNames: { '#pk': ATTR.pk, '#cb': ATTR.claimedBy },
      ExpressionAttributeValues: { ':ns': str(stream.namespace) },
    });
    return stream.namespace;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const item = await table.get({ Key: key, ConsistentRead: true });
    return item?.[ATTR.claimedBy]?.S ?? stream.namespace;
  }
}
