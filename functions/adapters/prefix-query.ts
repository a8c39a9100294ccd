import { str } from './item-codec.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { ATTR } from './table-layout.ts';

/** Every item of partition `pk` whose sort key starts with `prefix`, in sort-key order, following pages. */
export async function queryByPrefix(table: MeteredTable, pk: string, prefix: string): Promise<Item[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const output = await table.query({
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': ATTR.pk, '#sk': ATTR.sk },
      ExpressionAttributeValues: { ':pk': str(pk), ':prefix': str(prefix) },
      ConsistentRead: true,
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    items.push(...(output.Items ?? []));
    start = output.LastEvaluatedKey;
  } while (start !== undefined);
  return items;
}
