import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createTables, startDynamoDbLocal, type DynamoDbLocal } from '../dynamodb-local.ts';

// `npm start` runs its own DynamoDB Local. If that Java process dies (killed, out of memory),
// every write fails until it is back: the writer's retries, then the dead letters, hold the
// work (local/stream/failed-batch-triage.ts keeps them in --data and writes them again once
// the database is back). This watches the process, says so in one line and on
// /local/status (`healthy: false`), and starts it again on the same port and --data, so the
// store's client needs no new endpoint. In memory there is nothing to start again on: the
// data died with the process, and `npm start` exits non-zero.

export type DatabaseState = 'up' | 'restarting' | 'down';

export interface DatabaseStatus {
  readonly healthy: boolean;
  readonly state: DatabaseState;
  /** Java's process id, while it runs. */
  readonly pid: number | undefined;
  /** When the state last changed (RFC 3339). */
  readonly since: string;
  /** How many times it was started again. */
  readonly restarts: number;
  /** How the last one ended, or why it could not start again. */
  readonly lastError?: string;
}

export interface DatabaseEvents {
  /** One line for the person running it. */
  readonly say: (line: string) => void;
  /** Every state change. */
  readonly changed?: (status: DatabaseStatus) => void;
  /** It cannot come back (in memory, or three starts failed): the caller exits non-zero. */
  readonly fatal: (reason: string) => void;
}

/** Attempts to start DynamoDB Local again before giving up. */
const RESTARTS = 3;

export class WatchedDatabase {
  #local: DynamoDbLocal;
  readonly #client: DynamoDBClient;
  readonly #tableName: string;
  readonly #dbPath: string | undefined;
  readonly #events: DatabaseEvents;
  #status: DatabaseStatus;
  #stopping = false;
  #waiters: (() => void)[] = [];

  constructor(local: DynamoDbLocal, client: DynamoDBClient, tableName: string, dbPath: string | undefined, events: DatabaseEvents) {
    this.#local = local;
    this.#client = client;
    this.#tableName = tableName;
    this.#dbPath = dbPath;
    this.#events = events;
    this.#status = { healthy: true, state: 'up', pid: local.pid, since: new Date().toISOString(), restarts: 0 };
    this.#watch(local);
  }

  status(): DatabaseStatus {
    return this.#status;
  }

  /** Resolves once the database is up (at once when it is). */
  whenHealthy(): Promise<void> {
    if (this.#status.healthy) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#local.stop();
  }

  #watch(local: DynamoDbLocal): void {
    void local.exited.then((how) => {
      if (this.#stopping || local !== this.#local) return;
      void this.#restart(how);
    });
  }

  async #restart(how: string): Promise<void> {
    const downAt = Date.now();
    await this.#local.stop(); // what the watchdog left
    if (this.#dbPath === undefined) {
      this.#set({ state: 'down', pid: undefined, lastError: `DynamoDB Local exited (${how})` });
      this.#events.fatal(`DynamoDB Local exited (${how}); its data was in memory and is gone: stopping (use --data DIR to keep data across this)`);
      return;
    }
    this.#set({ state: 'restarting', pid: undefined, lastError: `DynamoDB Local exited (${how})` });
    this.#events.say(`jobfold local: DynamoDB Local exited (${how}); starting it again on ${this.#dbPath} (writes wait and are retried; GET /local/status says healthy: false)`);
    let error: unknown;
    for (let attempt = 1; attempt <= RESTARTS && !this.#stopping; attempt++) {
      try {
        const local = await startDynamoDbLocal({ dbPath: this.#dbPath, port: this.#local.port });
        if (this.#stopping) {
          await local.stop();
          return;
        }
        await createTables(this.#client, this.#tableName);
        this.#local = local;
        this.#watch(local);
        this.#set({ state: 'up', pid: local.pid, restarts: this.#status.restarts + 1 });
        this.#events.say(`jobfold local: DynamoDB Local is back after ${((Date.now() - downAt) / 1000).toFixed(1)} s; what waited is written again`);
        for (const waiter of this.#waiters.splice(0)) waiter();
        return;
      } catch (caught) {
        error = caught;
      }
    }
    if (this.#stopping) return;
    const reason = `DynamoDB Local could not be started again on ${this.#dbPath} (${RESTARTS} attempts): ${(error as Error)?.message ?? String(error)}`;
    this.#set({ state: 'down', pid: undefined, lastError: reason });
    this.#events.fatal(reason);
  }

  #set(change: Pick<DatabaseStatus, 'state' | 'pid'> & Partial<DatabaseStatus>): void {
    this.#status = { ...this.#status, ...change, healthy: change.state === 'up', since: new Date().toISOString() };
    this.#events.changed?.(this.#status);
  }
}
