import { DeleteItemCommand, PutItemCommand, QueryCommand, UpdateItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditCommand, verifyCommand } from '../../../cli/audit-command.ts';
import { entryItem } from '../../../functions/adapters/item-codec.ts';
import { isPage, logItemEntries, pageItems } from '../../../functions/adapters/log-page-codec.ts';
import { ATTR, keys } from '../../../functions/adapters/table-layout.ts';
import { createLocalClient } from '../../../local/dynamodb-local.ts';
import type { LocalStack, TraceOutcome } from '../../../local/local-stack.ts';
import type { LogEntry } from '../../../shared/log/event-store.ts';
import type { Finding } from '../../../shared/audit/findings.ts';
import { startTestStack } from '../local/local-stack-fixture.ts';

// Given the named-failure sample recorded by the local stack on DynamoDB Local, when its stored
// log is tampered with directly in the table (UpdateItem, DeleteItem, PutItem), then
// `jobfold verify` names what was done; the untouched log verifies, and so does its export.
// The log writer stores log pages (several entries per item); to tamper with single entries the
// pages are first stored again as one item per entry (readers see the same log either way), and
// one case tampers with a page itself.

type Item = Record<string, AttributeValue>;
const JOB = 'dev-eu-1/default/train';
const STREAM = { kind: 'Job' as const, clusterId: 'dev-eu-1', namespace: 'default', uid: '7c9e6679-7425-40de-944b-e07fc1f90ae7' };

let stack: LocalStack;
let client: ReturnType<typeof createLocalClient>;
let original: Item[];
let recorded: Item[];

beforeAll(async () => {
  stack = await startTestStack({ replay: 'samples/named-failure.jsonl' });
  await (stack.trace as Promise<TraceOutcome>);
  await stack.whenQuiet(0);
  client = createLocalClient(stack.dynamoDbEndpoint);
  recorded = await entryItems();
  for (const page of recorded.filter(isPage)) {
    await client.send(new DeleteItemCommand({ TableName: stack.tableName, Key: keyOf(page) }));
    for (const entry of logItemEntries(page)) await put(oneEntryItem(page, entry));
  }
  original = await entryItems();
}, 120_000);
afterAll(() => stack.stop());
afterEach(restore);

async function entryItems(): Promise<Item[]> {
  const output = await client.send(new QueryCommand({
    TableName: stack.tableName,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :e)',
    ExpressionAttributeNames: { '#pk': ATTR.pk, '#sk': ATTR.sk },
    ExpressionAttributeValues: { ':pk': { S: keys.stream(STREAM) }, ':e': { S: keys.entryPrefix } },
    ConsistentRead: true,
  }));
  return output.Items ?? [];
}

async function restore(): Promise<void> {
  for (const item of await entryItems()) await client.send(new DeleteItemCommand({ TableName: stack.tableName, Key: keyOf(item) }));
  for (const item of original) await client.send(new PutItemCommand({ TableName: stack.tableName, Item: item }));
}

const keyOf = (item: Item) => ({ [ATTR.pk]: item[ATTR.pk]!, [ATTR.sk]: item[ATTR.sk]! });
const seqOf = (item: Item) => Number(item[ATTR.seq]?.N);
/** The item moved to another seq: its key and seq attribute, nothing else. */
const atSeq = (item: Item, seq: number): Item => ({ ...item, [ATTR.sk]: { S: keys.entry(seq) }, [ATTR.seq]: { N: String(seq) } });
const put = (item: Item) => client.send(new PutItemCommand({ TableName: stack.tableName, Item: item }));
/** An entry of a page as the one-entry item it would have been, with its stored hash. */
const oneEntryItem = (page: Item, entry: LogEntry): Item =>
  ({ ...entryItem(page[ATTR.pk]!.S!, entry, entry.seq, entry.recordedAt, 'audit'), hash: { S: entry.hash ?? '' } });

async function verify(): Promise<{ code: number; findings: Finding[] }> {
  let out = '';
  const code = await verifyCommand([JOB, '--json', '--endpoint', stack.url], { out: (t) => (out += t), err: (t) => (out += t), write: () => {} });
  return { code, findings: JSON.parse(out).findings };
}
const named = (findings: Finding[]) => findings.map((f) => `${f.kind}@${f.seq}`);

describe('jobfold verify on DynamoDB Local', () => {
  it('verifies the log as recorded, and its audit export, with exit code 0', async () => {
    expect(original.length).toBeGreaterThan(8);
    expect(await verify()).toEqual({ code: 0, findings: [] });
    let exported = '';
    expect(await auditCommand([JOB, '--endpoint', stack.url], { out: () => {}, err: (t) => (exported += t), write: (t) => (exported += t) })).toBe(0);
    const audit = JSON.parse(exported);
    expect(audit).toMatchObject({ format: 'jobfold-audit/1', job: { name: 'train', uid: STREAM.uid }, chain: { length: original.length } });
    expect(audit.entries.filter((e: { type: string }) => e.type === 'JobConditionChanged')[0].body.read).toMatchObject({ foldVersion: expect.any(String), chainHead: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('names an entry changed with UpdateItem', async () => {
    const target = original.find((item) => seqOf(item) === 3)!;
    await client.send(new UpdateItemCommand({
      TableName: stack.tableName, Key: keyOf(target),
      UpdateExpression: 'SET #at = :at', ExpressionAttributeNames: { '#at': ATTR.observedAt }, ExpressionAttributeValues: { ':at': { S: '2020-01-01T00:00:00Z' } },
    }));
    const { code, findings } = await verify();
    expect(code).toBe(1);
    expect(named(findings)).toContain('changed@3');
  });

  it('names an entry removed with DeleteItem', async () => {
    await client.send(new DeleteItemCommand({ TableName: stack.tableName, Key: keyOf(original.find((item) => seqOf(item) === 4)!) }));
    const { code, findings } = await verify();
    expect(code).toBe(1);
    expect(named(findings)[0]).toBe('removed@4');
  });

  it('names an entry inserted with PutItem (the entries after it renumbered)', async () => {
    const sorted = [...original].sort((a, b) => seqOf(a) - seqOf(b));
    for (const item of sorted.filter((i) => seqOf(i) >= 5).reverse()) await put(atSeq(item, seqOf(item) + 1));
    const forged = atSeq(sorted.find((i) => seqOf(i) === 2)!, 5);
    await put({ ...forged, [ATTR.eventId]: { S: 'forged' } });
    const { code, findings } = await verify();
    expect(code).toBe(1);
    expect(named(findings)[0]).toBe('inserted@5');
    expect(findings).toContainEqual(expect.objectContaining({ kind: 'reordered', seq: 6, originalSeq: 5 }));
  });

  it('names two entries reordered with PutItem', async () => {
    const [a, b] = [original.find((i) => seqOf(i) === 5)!, original.find((i) => seqOf(i) === 6)!];
    await put(atSeq(b, 5));
    await put(atSeq(a, 6));
    const { code, findings } = await verify();
    expect(code).toBe(1);
    expect(findings.filter((f) => f.kind === 'reordered').map((f) => [f.seq, (f as { originalSeq: number }).originalSeq])).toEqual([[5, 6], [6, 5]]);
  });

  it('names an entry changed inside a log page', async () => {
    const page = recorded.find((item) => isPage(item) && logItemEntries(item).length >= 2)!;
    const entries = logItemEntries(page);
    const target = entries[1]!;
    for (const entry of entries) await client.send(new DeleteItemCommand({ TableName: stack.tableName, Key: keyOf(oneEntryItem(page, entry)) }));
    const tampered = entries.map((e) => (e.seq === target.seq ? { ...e, observedAt: '2020-01-01T00:00:00Z' } : e));
    for (const item of pageItems(page[ATTR.pk]!.S!, tampered, { prevHash: page[ATTR.prevHash]!.S! })) await put(item);
    const { code, findings } = await verify();
    expect(code).toBe(1);
    expect(named(findings)).toContain(`changed@${target.seq}`);
  });

  it('names a decision entry changed in the table', async () => {
    const sorted = [...original].sort((a, b) => seqOf(a) - seqOf(b));
    const condition = sorted.find((i) => i[ATTR.eventType]?.S === 'JobConditionChanged')!;
    await client.send(new UpdateItemCommand({
      TableName: stack.tableName, Key: keyOf(condition),
      UpdateExpression: 'SET #at = :at', ExpressionAttributeNames: { '#at': ATTR.observedAt }, ExpressionAttributeValues: { ':at': { S: '2020-01-01T00:00:00Z' } },
    }));
    const { findings } = await verify();
    expect(named(findings)).toContain(`changed@${seqOf(condition)}`);
  });
});
