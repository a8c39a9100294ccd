import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { UidClaimedError, type StreamId } from '../../shared/app/event-store.ts';
import { str } from './item-codec.ts';
import type { MeteredTable } from './metered-table.ts';
import { ATTR, ITEM_TYPE, keys } from './table-layout.ts';

// An object is its (cluster, uid) (issue 24): a log is keyed by its namespace too, so a uid
// reused under another namespace would start a second log of "the same" object. A log's first
// commit (CommitInput.claimUid) claims the uid in the same transaction: one item per (kind,
// cluster, uid) naming the namespace, put only if absent or already its own. The second
// namespace's first commit is cancelled on it, and the writer refuses its events. Inside the
// transaction rather than a PutItem before it: one round trip less for every new log (a PutItem
// of its own bills 1 write unit, a transaction's item 2), and no claim is left by a first
// commit that failed.

const claimKey = (stream: StreamId) => ({ [ATTR.pk]: str(keys.uidClaim(stream)), [ATTR.sk]: str(keys.uidClaimSort) });

/** The claim's Put, for the first commit's transaction. */
export function claimPut(tableName: string, stream: StreamId): TransactWriteItem {
  return {
    Put: {
      TableName: tableName,
      Item: { ...claimKey(stream), [ATTR.type]: str(ITEM_TYPE.uidClaim), [ATTR.claimedBy]: str(stream.namespace) },
      ConditionExpression: 'attribute_not_exists(#pk) OR #cb = :ns',
      ExpressionAttributeNames: { '#pk': ATTR.pk, '#cb': ATTR.claimedBy },
      ExpressionAttributeValues: { ':ns': str(stream.namespace) },
    },
  };
}

/** The claim's Put was refused: the error naming the namespace that holds the uid. */
export async function claimRefused(table: MeteredTable, stream: StreamId): Promise<UidClaimedError> {
  const item = await table.get({ Key: claimKey(stream), ConsistentRead: true });
  const holder = item?.[ATTR.claimedBy]?.S;
  if (holder === undefined) throw new Error(`uid claim ${keys.uidClaim(stream)}: refused, but no claim is stored`);
  return new UidClaimedError(stream, holder);
}
