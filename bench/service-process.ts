import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// The service as `npm start` runs it, in its own process: `node local/start.ts --port 0
// --no-sample` (its own DynamoDB Local, in memory), so a bench's feeder does not share the
// service's event loop or core. The bench then talks to it only as a user would: PutEvents at
// /events, the query API, and the /local routes (status, commands per cluster).

const START_SCRIPT = fileURLToPath(new URL('../local/start.ts', import.meta.url));
const SERVING = /serving at (http:\/\/\S+)(?:\s+\(DynamoDB Local (\S+), table ([^)\s]+)\))?/;
const QUIET_POLL_MS = 50;
const STOP_TIMEOUT_MS = 20_000;

/** What `GET /local/status` answers (local/http/local-routes.ts), the parts a bench reads. */
export interface ServiceStatus {
  readonly quiet: boolean;
  readonly ingestStreamDepth: number;
  readonly capacity: {
    readonly writeUnits: number;
    readonly rejectedWrites: number;
    readonly writeUnitsByOperation: Record<string, number>;
    readonly requestsByOperation: Record<string, number>;
  };
  readonly process: { readonly rssMb: number; readonly peakRssMb: number; readonly cpuSeconds: number };
}

export interface ServiceProcess {
  readonly url: string;
  /** Its DynamoDB Local and table (a bench that writes recorded logs straight into the table). */
  readonly dynamoDbEndpoint: string | undefined;
  readonly tableName: string | undefined;
  readonly eventsUrl: string;
  readonly pid: number;
  /** GET `path` (from the service's root) as JSON; throws on a status other than 200. */
  get<T>(path: string): Promise<T>;
  status(): Promise<ServiceStatus>;
  /**
   * CPU seconds of the processes the service started (DynamoDB Local's watchdog and Java), from
   * /proc; undefined where there is no /proc.
   */
  childrenCpuSeconds(): number | undefined;
  /** Resolves once `/local/status` says quiet at two polls in a row; calls `onPoll` at each poll. */
  whenQuiet(onPoll?: () => Promise<void>): Promise<void>;
  /** Stops it as Ctrl-C would (SIGTERM: server, functions, DynamoDB Local) and waits for its exit. */
  stop(): Promise<void>;
}

export interface ServiceProcessOptions {
  /** Extra options for the service's node (e.g. `--cpu-prof --cpu-prof-dir=DIR`). */
  readonly nodeOptions?: readonly string[];
}

/** Spawns `local/start.ts --port 0 --no-sample` and resolves once it serves. */
export async function startServiceProcess(options: ServiceProcessOptions = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), START_SCRIPT, '--port', '0', '--no-sample'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const { url, dynamoDbEndpoint, tableName } = await servingUrl(child, exited);
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${url}${path}`);
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const status = () => get<ServiceStatus>('/local/status');
  return {
    url,
    dynamoDbEndpoint,
    tableName,
    eventsUrl: `${url}/events`,
    pid: child.pid as number,
    get,
    status,
    childrenCpuSeconds: () => descendantsCpuSeconds(child.pid as number),
    async whenQuiet(onPoll) {
      for (let quietPolls = 0; quietPolls < 2;) {
        await new Promise((resolve) => setTimeout(resolve, QUIET_POLL_MS));
        await onPoll?.();
        quietPolls = (await status()).quiet ? quietPolls + 1 : 0;
      }
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The URL (and DynamoDB Local, table) the service prints once it serves; its other output is read and dropped. */
async function servingUrl(child: ChildProcess, exited: Promise<number | null>): Promise<{ url: string; dynamoDbEndpoint?: string; tableName?: string }> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const seen: string[] = [];
  const serving = new Promise<{ url: string; dynamoDbEndpoint?: string; tableName?: string }>((resolve) => {
    lines.on('line', (line) => {
      const match = SERVING.exec(line);
      if (match) resolve({ url: match[1] as string, ...(match[2] ? { dynamoDbEndpoint: match[2] } : {}), ...(match[3] ? { tableName: match[3] } : {}) });
      else if (seen.length < 20) seen.push(line);
    });
  });
  const failed = exited.then((code) => {
    throw new Error(`the service (local/start.ts) exited with ${code} before serving:\n${seen.join('\n')}`);
  });
  return Promise.race([serving, failed]);
}

/** utime + stime of every process below `pid` (Linux /proc; clock ticks taken as 1/100 s). */
function descendantsCpuSeconds(pid: number): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const stats = new Map<number, { ppid: number; seconds: number }>();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      // Fields after the command's closing parenthesis: state ppid … utime(12) stime(13).
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
      stats.set(Number(name), { ppid: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // The process ended while we looked.
    }
  }
  const below = (parent: number): number => [...stats].filter(([, s]) => s.ppid === parent)
    .reduce((sum, [child, s]) => sum + s.seconds + below(child), 0);
  return below(pid);
}
