import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { CancellationReason, TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { StoreLimitError, VersionConflictError } from '../../shared/log/event-store.ts';
import type { CommitInput, LogEntry, StreamId } from '../../shared/log/event-store.ts';
import { chainEntries } from '../../shared/log/hash-chain.ts';
import type { Tip } from './dynamodb-log-reads.ts';
import { changeKeys } from './dynamodb-change-feed.ts';
import { commandItems } from './dynamodb-outbox.ts';
import { putSummary } from './dynamodb-projection.ts';
import { readNumber } from './item-codec.ts';
import { pageItems } from './log-page-codec.ts';
import { backoff, itemBytes } from './metered-table.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { ATTR, keys } from './table-layout.ts';

// A commit is one TransactWriteItems: the log pages of its entries (log-page-codec.ts), then the
// outbox items (a large outbox detail is put just before it: dynamodb-outbox.ts). The summary is
// put after it (dynamodb-projection.ts putSummary): a projection, like a snapshot, it need not
// land with the log, and outside the transaction it and its index entries cost half (a small
// Job's first commit: 5 write units instead of 10). A commit of a summary alone is that put: its
// condition on the position the summary shows keeps it from replacing a later one.
// The head condition needs no head item: the first log item, at expectedHead + 1, is put with
// attribute_not_exists (a ConditionCheck on it when there are no entries), so the commit fails
// exactly when the head moved, whatever format the item there has.
// No per-event marker is written: the single writer stores an eventId once against the whole
// log (shared/decide/keep-news.ts); markers an older version wrote stay, and nothing reads them.
// A commit that writes one page and no command is a single conditional PutItem instead: the
// same condition on the same key, one item so nothing to make atomic, and half the write units
// (a transaction bills 2 per KB of each item, a PutItem 1).

const MAX_ATTEMPTS = 8;
/** DynamoDB's limits on one transaction. */
const TRANSACTION_MAX_ITEMS = 100;
const TRANSACTION_MAX_BYTES = 4 * 1024 * 1024;

type Action = { kind: 'entry' | 'head' } | { kind: 'command'; commandId: string };

/** Writes the commit at `tip`; returns the new head and what was appended. Snapshots are not its job. */
export async function commitTransaction(
  table: MeteredTable, stream: StreamId, input: CommitInput, tip: Tip,
): Promise<{ head: number; appended: LogEntry[]; duplicates: string[] }> {
  const pk = keys.stream(stream);
  const { head } = tip;
  const duplicates: string[] = [];
  const marked = new Set(input.podFirstSightings);
  // The seqs of the marked entries; a mark on a repeat left out is dropped with it.
  const firstSightings = new Set<number>();
  // A Set, not a scan of what was kept: a writer's commit holds thousands of entries.
  const kept = new Set<string>();
  const entries = input.entries.filter((entry, i) => {
    if (kept.has(entry.eventId)) {
      duplicates.push(entry.eventId);
      return false;
    }
    kept.add(entry.eventId);
    if (marked.has(i)) firstSightings.add(head + kept.size);
    return true;
  });
  // Chained on from the entry at the head (the first page's condition fails if the head moved),
  // with the hashes the writer chained already when it gives them from the same head.
  const logged = entries.map(({ eventId, type, observedAt, body }, i) => ({ eventId, type, observedAt, body, seq: head + 1 + i, recordedAt: input.recordedAt }));
  const given = input.entryHashes;
  const appended = given !== undefined && given.length === logged.length && duplicates.length === 0 && tip.hash === input.expectedHeadHash
    ? logged.map((entry, i) => ({ ...entry, hash: given[i] as string }))
    : chainEntries(tip.hash, logged);
  const pages = pageItems(pk, appended, { firstSightings, prevHash: tip.hash })
    .map((item) => ({ ...item, ...changeKeys(stream, readNumber(item, ATTR.seq), input.recordedAt) }));
  const result = await writeLog(table, stream, input, head, pages, appended, duplicates);
  if (input.summary !== undefined) await putSummary(table, stream, input.summary, result.head);
  return result;
}

/** The commit's pages and outbox items: one transaction, or one conditional put for a page without commands. */
async function writeLog(
  table: MeteredTable, stream: StreamId, input: CommitInput, head: number, pages: readonly Item[], appended: LogEntry[], duplicates: string[],
): Promise<{ head: number; appended: LogEntry[]; duplicates: string[] }> {
  if (pages.length === 1 && input.outbox.length === 0) return putSinglePage(table, stream, head, pages[0] as Item, appended, duplicates);
  const knownCommands = new Set<string>();
  const commandItemsOf = new Map(input.outbox.map((command) => [command.commandId, commandItems(stream, command)]));
  // Large details first, outside the transaction (dynamodb-outbox.ts): nothing names them until it commits.
  const details = [...commandItemsOf.values()].flatMap(({ detail }) => (detail ? [detail] : []));
  if (details.length > 0) await table.batchPut(details);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { actions, described } = build(table, stream, input, head, pages, knownCommands, commandItemsOf);
    if (actions.length === 0) return { head, appended: [], duplicates };
    checkTransactionSize(actions);
    try {
      await table.transactWrite(actions, randomUUID());
      return { head: head + appended.length, appended, duplicates };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      if (learn(stream, head, described, error.CancellationReasons ?? [], knownCommands)) await backoff(attempt);
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

/** The transaction for what is still to write; `described[i]` says what `actions[i]` is. */
function build(
  table: MeteredTable, stream: StreamId, input: CommitInput, head: number, pages: readonly Item[], knownCommands: ReadonlySet<string>,
  commandItemsOf: ReadonlyMap<string, { item: Item }>,
): { actions: TransactWriteItem[]; described: Action[] } {
  const pk = keys.stream(stream);
  const actions: TransactWriteItem[] = [];
  const described: Action[] = [];
  const absent = { ConditionExpression: 'attribute_not_exists(#sk)', ExpressionAttributeNames: { '#sk': ATTR.sk } };
  for (const item of pages) {
    actions.push({ Put: { TableName: table.name, Item: item, ...absent } });
    described.push({ kind: 'entry' });
  }
  const commands = input.outbox.filter((c) => !knownCommands.has(c.commandId));
  if (pages.length === 0 && commands.length > 0) {
    actions.push({ ConditionCheck: { TableName: table.name, Key: { [ATTR.pk]: { S: pk }, [ATTR.sk]: { S: keys.entry(head + 1) } }, ...absent } });
    described.push({ kind: 'head' });
  }
  for (const command of commands) {
    const item = commandItemsOf.get(command.commandId)?.item ?? commandItems(stream, command).item;
    actions.push({ Put: { TableName: table.name, Item: item, ...absent } });
    described.push({ kind: 'command', commandId: command.commandId });
  }
  return { actions, described };
}

/**
 * Learns from a cancelled attempt: throws VersionConflictError when the head moved, notes
 * commands already stored. Returns true when a concurrent transaction or throttling got in the
 * way, so the retry should wait a little.
 */
function learn(stream: StreamId, head: number, described: Action[], reasons: CancellationReason[], knownCommands: Set<string>): boolean {
  let retryLater = false;
  for (const [i, reason] of reasons.entries()) {
    const action = described[i];
    // TransactionConflict or throttling: nothing to learn, try again after a pause.
    if (reason.Code !== undefined && reason.Code !== 'None' && reason.Code !== 'ConditionalCheckFailed') retryLater = true;
    if (reason.Code !== 'ConditionalCheckFailed' || action === undefined) continue;
    if (action.kind === 'entry' || action.kind === 'head') throw new VersionConflictError(stream, head);
    if (action.kind === 'command') knownCommands.add(action.commandId);
  }
  return retryLater;
}
