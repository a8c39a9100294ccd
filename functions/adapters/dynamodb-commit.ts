import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { CancellationReason, TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { StoreLimitError, VersionConflictError } from '../../shared/app/event-store.ts';
import type { CommitInput, LogEntry, NewEntry, StreamId } from '../../shared/app/event-store.ts';
import { chainEntries } from '../../shared/log/hash-chain.ts';
import type { Tip } from './dynamodb-log-reads.ts';
import { changeKeys } from './dynamodb-change-feed.ts';
import { commandItem } from './dynamodb-outbox.ts';
import { summaryItem } from './dynamodb-projection.ts';
import { entryFromItem, entryItem, HASH_ATTR, num, readNumber, readString, str } from './item-codec.ts';
import { isPage, pageItems } from './log-page-codec.ts';
import { backoff, itemBytes } from './metered-table.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { ATTR, ITEM_TYPE, keys } from './table-layout.ts';

// A commit is one TransactWriteItems: per decision entry its marker and its log item (or, with
// `pageEntries`, the log pages of all entries and no markers), then the outbox items and the
// summary. The head condition needs no head item: the first log item, at expectedHead + 1, is
// put with attribute_not_exists (a ConditionCheck on it when there are no entries), and the
// head is read first, so expectedHead cannot be above the real head.
// A failed condition on a marker means the eventId was claimed before: if its slot holds the
// event, the entry is a duplicate and dropped; if another event holds it, the marker is moved
// (as appends do); if the slot is empty an append of it is in flight, which is a conflict.
// A paged commit that writes one page and nothing else is a single conditional PutItem
// instead: the same condition on the same key, one item so nothing to make atomic, and half
// the write units (a transaction bills 2 per KB of each item, a PutItem 1).

const MAX_ATTEMPTS = 8;
/** DynamoDB's limits on one transaction. */
const TRANSACTION_MAX_ITEMS = 100;
const TRANSACTION_MAX_BYTES = 4 * 1024 * 1024;

type Action =
  | { kind: 'marker'; eventId: string }
  | { kind: 'entry' | 'head' | 'summary' }
  | { kind: 'command'; commandId: string };

type Pending = {
  entries: NewEntry[];
  /** With `pageEntries`: the entries as logged and their page items, built once. */
  pages?: { entries: LogEntry[]; items: Item[] };
  duplicates: string[];
  /** eventId → seq its marker holds, for markers to move instead of create. */
  moves: Map<string, number>;
  knownCommands: Set<string>;
};

/** Writes the commit at `tip`; returns the new head and what was appended. Snapshots are not its job. */
export async function commitTransaction(
  table: MeteredTable, stream: StreamId, input: CommitInput, tip: Tip,
): Promise<{ head: number; appended: LogEntry[]; duplicates: string[] }> {
  const pk = keys.stream(stream);
  const { head } = tip;
  const pending: Pending = { entries: [], duplicates: [], moves: new Map(), knownCommands: new Set() };
  const marked = new Set(input.podFirstSightings);
  // The seqs of the marked entries; a mark on a repeat left out is dropped with it.
  const firstSightings = new Set<number>();
  // A Set, not a scan of what was kept: a log writer's commit holds thousands of entries.
  const kept = new Set<string>();
  for (const [i, entry] of input.entries.entries()) {
    if (kept.has(entry.eventId)) {
      pending.duplicates.push(entry.eventId);
      continue;
    }
    kept.add(entry.eventId);
    pending.entries.push(entry);
    if (marked.has(i)) firstSightings.add(head + pending.entries.length);
  }
  if (input.pageEntries === true && pending.entries.length > 0) {
    // Chained on from the entry at the head (the first page's condition fails if the head moved),
    // with the hashes the writer chained already when it gives them from the same head.
    const logged = pending.entries.map(({ eventId, type, observedAt, body }, i) =>
      ({ eventId, type, observedAt, body, seq: head + 1 + i, recordedAt: input.recordedAt }));
    const given = input.entryHashes;
    const entries = given !== undefined && given.length === logged.length && pending.duplicates.length === 0 && tip.hash === input.expectedHeadHash
      ? logged.map((entry, i) => ({ ...entry, hash: given[i] as string }))
      : chainEntries(tip.hash, logged);
    const items = pageItems(pk, entries, firstSightings)
      .map((item) => ({ ...item, ...changeKeys(stream, readNumber(item, ATTR.seq), input.recordedAt) }));
    pending.pages = { entries, items };
    if (pending.pages.items.length === 1 && input.outbox.length === 0 && input.summary === undefined) {
      return putSinglePage(table, stream, head, pending.pages.items[0] as Item, entries, pending.duplicates);
    }
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { actions, described, appended } = build(table, pk, stream, input, head, pending, tip.hash);
    if (actions.length === 0) return { head, appended: [], duplicates: pending.duplicates };
    checkTransactionSize(actions);
    try {
      await table.transactWrite(actions, randomUUID());
      return { head: head + appended.length, appended, duplicates: pending.duplicates };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      if (await learn(table, pk, stream, head, described, reasons, pending)) await backoff(attempt);
    }
  }
  throw new VersionConflictError(stream, head);
}

async function putSinglePage(
  table: MeteredTable, stream: StreamId, head: number, page: Item, entries: LogEntry[], duplicates: string[],
): Promise<{ head: number; appended: LogEntry[]; duplicates: string[] }> {
  try {
    await table.put({ Item: page, ConditionExpression: 'attribute_not_exists(#sk)', ExpressionAttributeNames: { '#sk': ATTR.sk } });
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new VersionConflictError(stream, head);
    throw error;
  }
  return { head: head + entries.length, appended: entries, duplicates };
}

/** Fails loudly (nothing written) where DynamoDB would refuse the transaction; checkCommit's limits keep a commit under these. */
function checkTransactionSize(actions: TransactWriteItem[]): void {
  if (actions.length > TRANSACTION_MAX_ITEMS) throw new StoreLimitError('items per transaction', TRANSACTION_MAX_ITEMS, actions.length);
  const bytes = actions.reduce((sum, action) => sum + itemBytes(action.Put?.Item ?? {}), 0);
  if (bytes > TRANSACTION_MAX_BYTES) throw new StoreLimitError('transaction (bytes)', TRANSACTION_MAX_BYTES, bytes);
}

type Attempt = { actions: TransactWriteItem[]; described: Action[]; appended: LogEntry[] };

/** The transaction for what is still pending; `described[i]` says what `actions[i]` is. */
function build(table: MeteredTable, pk: string, stream: StreamId, input: CommitInput, head: number, pending: Pending, prevHash: string | undefined): Attempt {
  let prev = prevHash;
  const actions: TransactWriteItem[] = [];
  const described: Action[] = [];
  const appended: LogEntry[] = [];
  const writer = randomUUID().slice(0, 8);
  const absent = { ConditionExpression: 'attribute_not_exists(#sk)', ExpressionAttributeNames: { '#sk': ATTR.sk } };
  for (const item of pending.pages?.items ?? []) {
    actions.push({ Put: { TableName: table.name, Item: item, ...absent } });
    described.push({ kind: 'entry' });
  }
  appended.push(...(pending.pages?.entries ?? []));
  if (!pending.pages) pending.entries.forEach((entry, i) => {
    const seq = head + 1 + i;
    const markerKey = { [ATTR.pk]: str(pk), [ATTR.sk]: str(keys.marker(entry.eventId)) };
    const from = pending.moves.get(entry.eventId);
    actions.push(from === undefined
      ? { Put: { TableName: table.name, Item: { ...markerKey, [ATTR.type]: str(ITEM_TYPE.marker), [ATTR.seq]: num(seq), [ATTR.writer]: str(writer) },
        ...absent, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } }
      : { Update: { TableName: table.name, Key: markerKey, UpdateExpression: 'SET #seq = :to', ConditionExpression: '#seq = :from',
        ExpressionAttributeNames: { '#seq': ATTR.seq }, ExpressionAttributeValues: { ':from': num(from), ':to': num(seq) },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } });
    described.push({ kind: 'marker', eventId: entry.eventId });
    const item = { ...entryItem(pk, entry, seq, input.recordedAt, writer, prev), ...changeKeys(stream, seq, input.recordedAt) };
    prev = item[HASH_ATTR]?.S;
    appended.push(entryFromItem(item));
    actions.push({ Put: { TableName: table.name, Item: item, ...absent } });
    described.push({ kind: 'entry' });
  });
  const commands = input.outbox.filter((c) => !pending.knownCommands.has(c.commandId));
  const writes = commands.length > 0 || input.summary !== undefined;
  if (appended.length === 0 && writes) {
    actions.push({ ConditionCheck: { TableName: table.name, Key: { [ATTR.pk]: str(pk), [ATTR.sk]: str(keys.entry(head + 1)) }, ...absent } });
    described.push({ kind: 'head' });
  }
  for (const command of commands) {
    actions.push({ Put: { TableName: table.name, Item: commandItem(stream, command), ...absent } });
    described.push({ kind: 'command', commandId: command.commandId });
  }
  if (input.summary !== undefined) {
    actions.push({ Put: { TableName: table.name, Item: summaryItem(stream, input.summary) } });
    described.push({ kind: 'summary' });
  }
  return { actions, described, appended };
}

/**
 * Learns from a cancelled attempt: throws VersionConflictError when the head moved, drops
 * duplicates, notes markers to move and commands already stored. Returns true when a
 * concurrent transaction or throttling got in the way, so the retry should wait a little.
 */
async function learn(
  table: MeteredTable, pk: string, stream: StreamId, head: number,
  described: Action[], reasons: CancellationReason[], pending: Pending,
): Promise<boolean> {
  let retryLater = false;
  for (const [i, reason] of reasons.entries()) {
    const action = described[i];
    // TransactionConflict or throttling: nothing to learn, try again after a pause.
    if (reason.Code !== undefined && reason.Code !== 'None' && reason.Code !== 'ConditionalCheckFailed') retryLater = true;
    if (reason.Code !== 'ConditionalCheckFailed' || action === undefined) continue;
    if (action.kind === 'entry' || action.kind === 'head') throw new VersionConflictError(stream, head);
    if (action.kind === 'command') pending.knownCommands.add(action.commandId);
    if (action.kind === 'marker' && reason.Item) {
      const claimed = readNumber(reason.Item, ATTR.seq);
      const slot = await table.get({ Key: { [ATTR.pk]: str(pk), [ATTR.sk]: str(keys.entry(claimed)) }, ConsistentRead: true });
      if (slot === undefined) throw new VersionConflictError(stream, head);
      if (!isPage(slot) && readString(slot, ATTR.eventId) === action.eventId) {
        pending.entries = pending.entries.filter((e) => e.eventId !== action.eventId);
        pending.duplicates.push(action.eventId);
        pending.moves.delete(action.eventId);
      } else {
        pending.moves.set(action.eventId, claimed);
      }
    }
  }
  return retryLater;
}
