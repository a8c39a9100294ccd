import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { isPage, logItemEntries } from '../functions/adapters/log-page-codec.ts';
import { itemBytes, type Item } from '../functions/adapters/metered-table.ts';
import { TraceRecorder, type PodRef, type RecordedEntry } from '../local/sample/trace-recorder.ts';
import type { LogEntry } from '../shared/log/event-store.ts';
import { putAll, round } from './bench-stack.ts';
import { packedFeed } from './packed-feed.ts';
import { withRealisticPods } from './realistic-pods.ts';
import { startServiceProcess } from './service-process.ts';

// Where a log page's bytes go: the service path's first phase (bench/service-path.ts: an Indexed
// Job's pods run, fail or succeed, the leader succeeds), fed to a service as `npm start` runs it,
// then every log page of its table read back and measured. For each field of the stored entries,
// the compressed page is made again without that field (or with it the same in every entry), and
// the bytes it saves are that field's share: what a change of the page's encoding can win back.
// Figures, never assertions. Run: node bench/page-bytes.ts --help.

export const PAGE_BYTES_HELP = `Usage: node bench/page-bytes.ts [--pods N] [--unpacked] [--lean] [--unstamped] [--dump FILE] [--json]

Feeds one Indexed Job of --pods pods (default 2,000; as bench/service-path.ts's first phase:
realistic pods, packed as the forwarder packs them at 2,000 a second; --unpacked one event per
entry, --lean the recorder's lean pods, --unstamped without the forwarder's stamp) to a service
started as \`npm start\` does, then reads back every log page of its table and prints: pages,
entries, item bytes and compressed bytes per entry, and for each field of the stored entries the
compressed bytes per entry it costs (the page compressed again without it, or with it constant),
and every item left in the table by type (items, bytes, units as a PutItem of each). --dump FILE
writes the pages' entries, as read back, into FILE.`;

const CLUSTER = 'bench-pages';

/** The fields whose share of a page is measured: a path into the stored entry. */
const FIELDS: readonly (readonly string[])[] = [
  ['seq'], ['eventId'], ['observedAt'], ['recordedAt'], ['body', 'eventId'], ['body', 'observedAt'], ['body', 'arrivedAt'],
  ['body', 'sequence'], ['body', 'sequence', 'jobSeq'], ['body', 'sequence', 'seq'], ['body', 'sequence', 'epoch'],
  ['body', 'pod'], ['body', 'pod', 'metadata'], ['body', 'pod', 'status'], ['body', 'pod', 'spec'],
];

export interface PageBytesFigures {
  readonly pods: number;
  readonly pages: number;
  readonly entries: number;
  readonly entriesPerPage: number;
  /** Whole items (keys and every attribute, as DynamoDB sizes them) per entry. */
  readonly itemBytesPerEntry: number;
  /** The compressed entries (attribute d) per entry. */
  readonly compressedBytesPerEntry: number;
  /** Per field: compressed bytes per entry saved without it, and with it the same in every entry. */
  readonly fieldBytesPerEntry: Record<string, { readonly without: number; readonly constant: number }>;
  /** Every item left in the table at the end, by type (attribute t) and sort key prefix: items, bytes, units as a PutItem of each. */
  readonly tableItemsByType: Record<string, { readonly items: number; readonly bytes: number; readonly units: number }>;
}

export interface PageBytesOptions {
  readonly pods?: number;
  readonly packed?: boolean;
  readonly lean?: boolean;
  readonly stamped?: boolean;
  /** A file to write the pages' entries into, as read back (JSON: an array of pages, each an array of entries). */
  readonly dump?: string;
}

export async function runPageBytes(options: PageBytesOptions = {}): Promise<PageBytesFigures> {
  const { pods = 2000, packed = true, lean = false, stamped = true } = options;
  const service = await startServiceProcess();
  const bus = new EventBridgeClient({ endpoint: service.eventsUrl, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  const table = new DynamoDBClient({ endpoint: service.dynamoDbEndpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  try {
    const trace = new TraceRecorder(new Date().toISOString(), 'b10c', { forwarderCounts: stamped });
    const job = trace.job(CLUSTER, 0, 'bench', `indexed-${pods}`, {
      completions: pods, parallelism: pods, completionMode: 'Indexed', backoffLimit: pods, successPolicy: { rules: [{ succeededIndexes: '0' }] },
    });
    const all: PodRef[] = Array.from({ length: pods }, (_, i) => trace.runPod(job, 1, i));
    for (const [i, pod] of all.entries()) {
      if (i === 0) continue;
      if (i % 50 === 0) trace.exitPod(pod, 2, 1);
      else if (i % 3 === 0) trace.exitPod(pod, 3, 0);
    }
    trace.exitPod(all[0] as PodRef, 5, 0);
    const entries: readonly RecordedEntry[] = lean ? trace.entries : withRealisticPods(trace.entries);
    await putAll(bus, packed ? packedFeed(entries, 2000) : entries, 8, () => {});
    await service.whenQuiet();
    const pages: Item[] = [];
    let start: Item | undefined;
    const byType = new Map<string, { items: number; bytes: number; units: number }>();
    do {
      const out = await table.send(new ScanCommand({ TableName: service.tableName, ExclusiveStartKey: start }));
      for (const item of out.Items ?? []) {
        if (isPage(item)) pages.push(item);
        const kind = `${item['t']?.S ?? '?'} ${(item['sk']?.S ?? '').replace(/[#/].*$/, '')}`;
        const sum = byType.get(kind) ?? { items: 0, bytes: 0, units: 0 };
        byType.set(kind, { items: sum.items + 1, bytes: sum.bytes + itemBytes(item), units: sum.units + Math.ceil(itemBytes(item) / 1024) });
      }
      start = out.LastEvaluatedKey;
    } while (start !== undefined);
    const decoded = pages.map((page) => logItemEntries(page).map((e) => stored(e)));
    if (options.dump !== undefined) writeFileSync(options.dump, JSON.stringify(decoded));
    const count = decoded.reduce((n, p) => n + p.length, 0);
    const compressed = (variant: (entry: Record<string, unknown>) => Record<string, unknown>) =>
      decoded.reduce((n, page) => n + packedBytes(page.map(variant)), 0);
    const whole = compressed((e) => e);
    const fieldBytesPerEntry = Object.fromEntries(FIELDS.map((path) => [path.join('.'), {
      without: round((whole - compressed((e) => edited(e, path, undefined))) / count),
      constant: round((whole - compressed((e) => edited(e, path, constantOf(decoded, path)))) / count),
    }]));
    return {
      pods,
      pages: pages.length,
      entries: count,
      entriesPerPage: round(count / pages.length),
      itemBytesPerEntry: round(pages.reduce((n, p) => n + itemBytes(p), 0) / count),
      compressedBytesPerEntry: round(pages.reduce((n, p) => n + (p['d']?.B?.byteLength ?? 0), 0) / count),
      fieldBytesPerEntry,
      tableItemsByType: Object.fromEntries(byType),
    };
  } finally {
    bus.destroy();
    table.destroy();
    await service.stop();
  }
}

/** The entry as its page stores it (no hash). */
function stored(entry: LogEntry): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(entry)) if (key !== 'hash') copy[key] = entry[key as keyof LogEntry];
  return structuredClone(copy);
}

/** The first value found at `path` in any entry: what "constant" sets it to. */
function constantOf(pages: readonly (readonly Record<string, unknown>[])[], path: readonly string[]): unknown {
  for (const page of pages) for (const entry of page) {
    const value = path.reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], entry);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** A copy of `entry` with the value at `path` replaced (left out when `value` is undefined), where it is present. */
function edited(entry: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const [key, ...rest] = path as [string, ...string[]];
  if (!(key in entry)) return entry;
  const copy = { ...entry };
  if (rest.length === 0) {
    if (value === undefined) delete copy[key];
    else copy[key] = value;
  } else if (typeof entry[key] === 'object' && entry[key] !== null) {
    copy[key] = edited(entry[key] as Record<string, unknown>, rest, value);
  }
  return copy;
}

/** The compressed bytes of the entries as one form 1 page (every value as it is; log-page-codec.ts, brotli quality 5). */
function packedBytes(entries: readonly Record<string, unknown>[]): number {
  const raw = Buffer.from(JSON.stringify(entries), 'utf8');
  return brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  }).byteLength;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    console.log(PAGE_BYTES_HELP);
    process.exit(0);
  }
  const value = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const pods = value('--pods');
  const dump = value('--dump');
  const figures = await runPageBytes({
    ...(pods === undefined ? {} : { pods: Number(pods) }),
    ...(dump === undefined ? {} : { dump }),
    packed: !args.includes('--unpacked'),
    lean: args.includes('--lean'),
    stamped: !args.includes('--unstamped'),
  });
  console.log(args.includes('--json') ? JSON.stringify(figures) : figures);
}
