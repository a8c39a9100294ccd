import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

// The top self-time costs of a V8 CPU profile (`node --cpu-prof` writes one per process): where a
// process spent its CPU, by function, without opening DevTools. Self time is the time a function
// was on top of the stack (not its callees); samples of one function name at one place in one
// file are summed, however many call paths reach it. `(idle)`, `(program)` and `(garbage
// collector)` are V8's own: time waiting for I/O, in the engine, and collecting. A bundle with its
// source map beside it (FILE.map, as esbuild writes it) is read through the map, so a minified
// function is named by its source file and name (the Lambda bundles of bench/cold-start.ts).

export const PROFILE_TOP_HELP = `Usage: node bench/profile-top.ts FILE.cpuprofile [--top N] [--by function|file|package|area] [--json]
  --top N    rows to print (default 15)
  --by       sum self time per function (default), per source file, per npm package
             (node_modules/<package>; jobfold's own files by folder), or per area: each sample
             charged to the nearest jobfold folder on its stack (local/bus, shared/log, …), so
             JSON.parse, zlib or the SDK count for the jobfold code that called them
  --json     one JSON object instead of the table
Self time in ms and as a share of the profile's non-idle time.`;

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileRow {
  readonly name: string;
  readonly selfMs: number;
  /** Of the profile's time outside `(idle)`. */
  readonly share: number;
}

export interface ProfileTop {
  readonly totalMs: number;
  readonly idleMs: number;
  readonly rows: readonly ProfileRow[];
}

type Grouping = 'function' | 'file' | 'package' | 'area';

/** `file:///…/node_modules/@aws-sdk/core/dist/x.js` → `@aws-sdk/core`; a bundle or jobfold file → its path from the last `jobfold`-ish root. */
function placeOf(url: string, by: Grouping): string {
  const path = url.replace(/^file:\/\//, '');
  if (by === 'file') return path.split('/').slice(-3).join('/');
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inModules) return inModules[1] as string;
  if (path.startsWith('node:')) return 'node';
  return path.split('/').slice(-2, -1)[0] ?? path;
}

const sourceMaps = new Map<string, SourceMap | undefined>();

/** The bundle's source map (FILE.map beside it), read once; undefined when there is none. */
function sourceMapOf(url: string): SourceMap | undefined {
  if (!sourceMaps.has(url)) {
    const path = url.startsWith('file://') ? fileURLToPath(url) : url;
    sourceMaps.set(url, existsSync(`${path}.map`) ? new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8'))) : undefined);
  }
  return sourceMaps.get(url);
}

/** The frame as its source says it: through the bundle's source map when it has one. */
function sourceFrame(frame: ProfileNode['callFrame']): { functionName: string; url: string; lineNumber: number } {
  const found = frame.url === '' ? undefined : sourceMapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
  // findEntry answers {} for a position the map does not cover (the bundle's own top level).
  if (!found || !('originalSource' in found)) return frame;
  const entry = found as { name?: string; originalSource: string; originalLine: number };
  return { functionName: entry.name ?? frame.functionName, url: entry.originalSource, lineNumber: entry.originalLine };
}

function labelOf(node: ProfileNode, by: Grouping): string {
  const { functionName, url, lineNumber } = sourceFrame(node.callFrame);
  if (url === '') return functionName === '' ? '(anonymous)' : functionName;
  if (by !== 'function') return placeOf(url, by);
  return `${functionName || '(anonymous)'}  ${url.replace(/^file:\/\//, '').split('/').slice(-2).join('/')}:${lineNumber + 1}`;
}

/** jobfold's folder of a source path (`local/bus`, `shared/log`), or undefined outside jobfold's own code. */
function jobfoldArea(url: string): string | undefined {
  if (url === '' || url.startsWith('node:') || url.includes('node_modules/')) return undefined;
  const match = /(?:^|\/)((?:bench|cdk|cli|forwarder|functions|local|shared)\/(?:[^/]+\/)?)[^/]+\.ts$/.exec(url.replace(/^file:\/\//, ''));
  return match?.[1]?.replace(/\/$/, '').replace(/\/[^/]+\.ts$/, '');
}

/** The nearest jobfold folder on `node`'s stack, else its own label by package. */
function areaOf(node: ProfileNode, nodes: ReadonlyMap<number, ProfileNode>, parents: ReadonlyMap<number, number>): string {
  for (let at: ProfileNode | undefined = node; at; at = nodes.get(parents.get(at.id) ?? -1)) {
    const area = jobfoldArea(sourceFrame(at.callFrame).url);
    if (area !== undefined) return area;
  }
  return labelOf(node, 'package');
}

/** Self time per function (or file, package, area), largest first. */
export function profileTop(profile: CpuProfile, top = 15, by: Grouping = 'function'): ProfileTop {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map(profile.nodes.flatMap((node) => (node.children ?? []).map((child) => [child, node.id] as const)));
  const areas = new Map<number, string>();
  const selfUs = new Map<string, number>();
  let idleUs = 0;
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const node = nodes.get(id);
    if (!node) return;
    totalUs += delta;
    if (node.callFrame.functionName === '(idle)') {
      idleUs += delta;
      return;
    }
    let label: string;
    if (by === 'area') {
      label = areas.get(id) ?? areaOf(node, nodes, parents);
      areas.set(id, label);
    } else label = labelOf(node, by);
    selfUs.set(label, (selfUs.get(label) ?? 0) + delta);
  });
  const busyUs = Math.max(1, totalUs - idleUs);
  const rows = [...selfUs.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({ name, selfMs: Math.round(us / 100) / 10, share: Math.round((us / busyUs) * 1000) / 1000 }));
  return { totalMs: Math.round(totalUs / 1000), idleMs: Math.round(idleUs / 1000), rows };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.length === 0) {
    console.log(PROFILE_TOP_HELP);
    process.exit(args.length === 0 ? 1 : 0);
  }
  const value = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const by = (value('--by') ?? 'function') as Grouping;
  if (!['function', 'file', 'package', 'area'].includes(by)) throw new Error(`--by: function, file, package or area, got ${by}\n${PROFILE_TOP_HELP}`);
  const top = Number(value('--top') ?? 15);
  const file = args.find((arg, i) => !arg.startsWith('--') && !['--top', '--by'].includes(args[i - 1] ?? ''));
  if (file === undefined) throw new Error(`no profile named\n${PROFILE_TOP_HELP}`);
  const result = profileTop(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, top, by);
  if (args.includes('--json')) {
    console.log(JSON.stringify(result));
  } else {
    console.log(`${file}: ${result.totalMs} ms sampled, ${result.totalMs - result.idleMs} ms busy`);
    for (const row of result.rows) {
      console.log(`${row.selfMs.toFixed(1).padStart(9)} ms ${(row.share * 100).toFixed(1).padStart(5)} %  ${row.name}`);
    }
  }
}
