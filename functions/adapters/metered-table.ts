import {
  BatchGetItemCommand, BatchWriteItemCommand, ConditionalCheckFailedException, DeleteItemCommand, GetItemCommand, PutItemCommand,
  QueryCommand, ScanCommand, TransactionCanceledException, TransactWriteItemsCommand, UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type {
  AttributeValue, ConsumedCapacity, DeleteItemCommandInput, DynamoDBClient, GetItemCommandInput,
  PutItemCommandInput, PutItemCommandOutput, QueryCommandInput, QueryCommandOutput, ScanCommandInput, ScanCommandOutput, TransactWriteItem,
  UpdateItemCommandInput, UpdateItemCommandOutput,
} from '@aws-sdk/client-dynamodb';

export type Item = Record<string, AttributeValue>;
type Operation =
  | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem' | 'TransactWriteItems'
  | 'GetItem' | 'Query' | 'Scan' | 'BatchGetItem';
type Input<T> = Omit<T, 'TableName' | 'ReturnConsumedCapacity'>;

/** What one request consumed, as DynamoDB reported it (all zero when reporting is off). */
export type CapacityUse = { operation: Operation; readUnits: number; writeUnits: number; consumed: ConsumedCapacity[] };

/**
 * Running totals of a store. `rejectedWrites` counts writes refused by a condition and
 * cancelled transactions: DynamoDB bills them but reports no capacity with the error.
 * `transactionalWriteUnits` is the part of `writeUnits` spent in transactions; DynamoDB bills
 * 2 units per KB of each item there, but DynamoDB Local reports other figures for them.
 */
export type CapacityTotals = {
  readUnits: number;
  writeUnits: number;
  transactionalWriteUnits: number;
  rejectedWrites: number;
  /**
   * Write units as DynamoDB bills them: `writeUnits` for single-item and batch writes, but each
   * transaction counted from its items (2 per started KB of each Put item, 2 for each other
   * action), because DynamoDB Local reports no or other figures for transactions. Use this for
   * WCU-per-event figures on DynamoDB Local (a model: index writes inside transactions are not
   * in it).
   */
  billedWriteUnits: number;
};

export type MeterOptions = {
  /** Default 'TOTAL'; 'INDEXES' adds the per-index breakdown to each CapacityUse. */
  returnConsumedCapacity?: 'TOTAL' | 'INDEXES' | 'NONE';
  onConsumedCapacity?: (use: CapacityUse) => void;
};

const BATCH_GET_MAX_KEYS = 100;
const BATCH_WRITE_MAX_ITEMS = 25;

/** One table behind a client; every request asks for, and reports, its consumed capacity. */
export class MeteredTable {
  readonly name: string;
  readonly #client: DynamoDBClient;
  readonly #mode: 'TOTAL' | 'INDEXES' | 'NONE';
  readonly #onUse: ((use: CapacityUse) => void) | undefined;
  readonly #totals: CapacityTotals = { readUnits: 0, writeUnits: 0, transactionalWriteUnits: 0, rejectedWrites: 0, billedWriteUnits: 0 };

  constructor(client: DynamoDBClient, name: string, options: MeterOptions = {}) {
    this.#client = client;
    this.name = name;
    this.#mode = options.returnConsumedCapacity ?? 'TOTAL';
    this.#onUse = options.onConsumedCapacity;
  }

  get totals(): CapacityTotals {
    return { ...this.#totals };
  }

  async put(input: Input<PutItemCommandInput>): Promise<PutItemCommandOutput> {
    const output = await this.#conditional(this.#client.send(new PutItemCommand(this.#input(input))));
    this.#record('PutItem', output.ConsumedCapacity);
    return output;
  }

  async update(input: Input<UpdateItemCommandInput>): Promise<UpdateItemCommandOutput> {
    const output = await this.#conditional(this.#client.send(new UpdateItemCommand(this.#input(input))));
    this.#record('UpdateItem', output.ConsumedCapacity);
    return output;
  }

  async delete(input: Input<DeleteItemCommandInput>): Promise<void> {
    const output = await this.#client.send(new DeleteItemCommand(this.#input(input)));
    this.#record('DeleteItem', output.ConsumedCapacity);
  }

  async get(input: Input<GetItemCommandInput>): Promise<Item | undefined> {
    const output = await this.#client.send(new GetItemCommand(this.#input(input)));
    this.#record('GetItem', output.ConsumedCapacity);
    return output.Item;
  }

  async query(input: Input<QueryCommandInput>): Promise<QueryCommandOutput> {
    const output = await this.#client.send(new QueryCommand(this.#input(input)));
    this.#record('Query', output.ConsumedCapacity);
    return output;
  }

  async scan(input: Input<ScanCommandInput>): Promise<ScanCommandOutput> {
    const output = await this.#client.send(new ScanCommand(this.#input(input)));
    this.#record('Scan', output.ConsumedCapacity);
    return output;
  }

  /** Reads the items of `keys` (any number), retrying unprocessed keys; order is not kept. */
  async batchGet(keys: Item[], consistent: boolean): Promise<Item[]> {
    const items: Item[] = [];
    let pending = keys;
    for (let attempt = 0; pending.length > 0; attempt++) {
      const batch = pending.slice(0, BATCH_GET_MAX_KEYS);
      const output = await this.#client.send(new BatchGetItemCommand({
        RequestItems: { [this.name]: { Keys: batch, ConsistentRead: consistent } },
        ReturnConsumedCapacity: this.#mode,
      }));
      this.#record('BatchGetItem', output.ConsumedCapacity);
      items.push(...(output.Responses?.[this.name] ?? []));
      const unprocessed = output.UnprocessedKeys?.[this.name]?.Keys ?? [];
      pending = [...unprocessed, ...pending.slice(BATCH_GET_MAX_KEYS)];
      if (unprocessed.length > 0) await backoff(attempt);
    }
    return items;
  }

  /** Puts `items` (any number) without conditions, retrying unprocessed ones. */
  async batchPut(items: Item[]): Promise<void> {
    let pending = items.map((item) => ({ PutRequest: { Item: item } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      const batch = pending.slice(0, BATCH_WRITE_MAX_ITEMS);
      const output = await this.#client.send(new BatchWriteItemCommand({
        RequestItems: { [this.name]: batch },
        ReturnConsumedCapacity: this.#mode,
      }));
      this.#record('BatchWriteItem', output.ConsumedCapacity);
      const unprocessed = (output.UnprocessedItems?.[this.name] ?? []).flatMap((r) => (r.PutRequest?.Item ? [{ PutRequest: { Item: r.PutRequest.Item } }] : []));
      pending = [...unprocessed, ...pending.slice(BATCH_WRITE_MAX_ITEMS)];
      if (unprocessed.length > 0) await backoff(attempt);
    }
  }

  /** Runs a transaction; `token` makes SDK retries of the same attempt idempotent. */
  async transactWrite(actions: TransactWriteItem[], token: string): Promise<void> {
    const output = await this.#conditional(this.#client.send(new TransactWriteItemsCommand({
      TransactItems: actions,
      ClientRequestToken: token,
      ReturnConsumedCapacity: this.#mode,
    })));
    const units = this.#record('TransactWriteItems', output.ConsumedCapacity);
    this.#totals.transactionalWriteUnits += units;
    this.#totals.billedWriteUnits += transactionBilledUnits(actions) - units;
  }

  #input<T extends object>(input: T): T & { TableName: string; ReturnConsumedCapacity: 'TOTAL' | 'INDEXES' | 'NONE' } {
    return { ...input, TableName: this.name, ReturnConsumedCapacity: this.#mode };
  }

  async #conditional<T>(request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException || error instanceof TransactionCanceledException) {
        this.#totals.rejectedWrites++;
      }
      throw error;
    }
  }

  #record(operation: Operation, consumed: ConsumedCapacity | ConsumedCapacity[] | undefined): number {
    const list = consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed];
    const units = list.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
    const isRead = operation === 'GetItem' || operation === 'Query' || operation === 'Scan' || operation === 'BatchGetItem';
    const use: CapacityUse = { operation, readUnits: isRead ? units : 0, writeUnits: isRead ? 0 : units, consumed: list };
    this.#totals.readUnits += use.readUnits;
    this.#totals.writeUnits += use.writeUnits;
    this.#totals.billedWriteUnits += use.writeUnits;
    this.#onUse?.(use);
    return units;
  }
}

/** Waits a jittered, capped exponential delay before retry `attempt` (0-based). */
export function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(1000, 20 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What DynamoDB bills a transaction: 2 units per started KB of each Put item, 2 per other action. */
export function transactionBilledUnits(actions: readonly TransactWriteItem[]): number {
  return actions.reduce((sum, action) => sum + 2 * (action.Put ? Math.max(1, Math.ceil(itemBytes(action.Put.Item ?? {}) / 1024)) : 1), 0);
}

/** An item's size as DynamoDB counts it: attribute names plus values (flat items, as the store writes them). */
export function itemBytes(item: Item): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    bytes += Buffer.byteLength(name) + (value.S !== undefined ? Buffer.byteLength(value.S) : 0)
      + (value.N !== undefined ? value.N.length : 0) + (value.B !== undefined ? value.B.byteLength : 0)
      + (value.BOOL !== undefined ? 1 : 0);
  }
  return bytes;
}
