import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The layering the README promises, checked on the source text: shared/ is pure (no AWS, no
// middy, no I/O, no clock, no environment, no randomness), and cdk/ only wires (it knows
// functions/ by entry path and the constants-only table layout, never shared/).

const root = fileURLToPath(new URL('../../../', import.meta.url));

function sources(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) files.push(...sources(path));
    else if (name.endsWith('.ts')) files.push(path);
  }
  return files;
}

const imports = (text: string) => [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1] ?? '');

const FORBIDDEN_IN_SHARED: ReadonlyArray<[string, RegExp]> = [
  ['an AWS SDK import', /from '@aws-sdk\//],
  ['a middy import', /from '@middy\//],
  ['a Powertools import', /from '@aws-lambda-powertools\//],
  ['a CDK import', /from '(aws-cdk-lib|constructs)/],
  ['file or network I/O', /from 'node:(fs|fs\/promises|http|https|net|child_process)'/],
  ['process.env', /process\.env/],
  ['the clock', /Date\.now\(\)|new Date\(\)/],
  ['randomness', /Math\.random\(|randomUUID\(/],
];

describe('shared/ is pure domain code', () => {
  it.each(sources('shared'))('%s uses no AWS, I/O, clock, environment or randomness', (file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const found = FORBIDDEN_IN_SHARED.filter(([, pattern]) => pattern.test(text)).map(([what]) => what);
    expect(found).toEqual([]);
  });
});

describe('cdk/ only wires', () => {
  it.each(sources('cdk'))('%s imports nothing from shared/ and only the table layout from functions/', (file) => {
    const bad = imports(readFileSync(join(root, file), 'utf8')).filter((spec) => {
      if (!spec.startsWith('.')) return false;
      const target = relative(root, join(root, file, '..', spec));
      return target.startsWith('shared/') || (target.startsWith('functions/') && target !== 'functions/adapters/table-layout.ts');
    });
    expect(bad).toEqual([]);
  });
});

// The floors of the house (shared/research/house-notes.md): an import only ever goes down or
// sideways, never up, so the JSONL trace contract that local/, cli/, bench/ and the tests share
// sits in shared/contract/, below all of them.
// console/ is the web console: its browser app (src/, built apart) and the serving of its
// files, which both `jobfold console` and the local stack use.
const FLOORS: Readonly<Record<string, number>> = { shared: 0, functions: 1, forwarder: 1, cdk: 2, cli: 2, console: 2, local: 3, bench: 4 };

describe('no import runs back up', () => {
  const files = Object.keys(FLOORS).flatMap((dir) => sources(dir)).filter((file) => !file.startsWith('console/src/'));
  it.each(files)('%s imports only from its own floor or below', (file) => {
    const floor = FLOORS[file.split('/')[0]!]!;
    const up = imports(readFileSync(join(root, file), 'utf8')).filter((spec) => {
      if (!spec.startsWith('.')) return false;
      const target = relative(root, join(root, file, '..', spec)).split('/')[0]!;
      return (FLOORS[target] ?? -1) > floor;
    });
    expect(up).toEqual([]);
  });
});

// Issue 20: each kind's decider is one module. Outside shared/, a Job or JobSet is read through
// shared/job/index.ts or shared/jobset/index.ts, never a file behind it, so what the fold keeps
// to itself can change without touching an adapter.
describe('outside shared/, each kind is read through its index', () => {
  const files = Object.keys(FLOORS).filter((dir) => dir !== 'shared').flatMap((dir) => sources(dir));
  it.each(files)('%s imports shared/job and shared/jobset only through their index.ts', (file) => {
    const deep = imports(readFileSync(join(root, file), 'utf8')).filter((spec) => {
      if (!spec.startsWith('.')) return false;
      const target = relative(root, join(root, file, '..', spec));
      return /^shared\/(job|jobset)\//.test(target) && !/^shared\/(job|jobset)\/index\.ts$/.test(target);
    });
    expect(deep).toEqual([]);
  });
});

// Issue 20: policies are leaves that `decide` calls. A policy (one KEP per module) reads the
// Kubernetes vocabulary below it (shared/k8s/, shared/indexes/) and its own inputs, never the
// kinds that call it, so job/ and jobset/ depend on policies/ and never the reverse.
describe('policies are leaves', () => {
  it.each(sources('shared/policies'))('%s imports nothing from shared/job or shared/jobset', (file) => {
    const up = imports(readFileSync(join(root, file), 'utf8')).filter((spec) => {
      if (!spec.startsWith('.')) return false;
      return /^shared\/(job|jobset)\//.test(relative(root, join(root, file, '..', spec)));
    });
    expect(up).toEqual([]);
  });
});

// Issue 20: the folders of shared/ tell the pipeline. Each is a room that docs/architecture.md's
// table names ("The rooms"), so a file has one place to go and a new folder is named there first.
describe('every folder of shared/ is a room of docs/architecture.md', () => {
  const rooms = readFileSync(join(root, 'docs/architecture.md'), 'utf8').split('## The rooms')[1]?.split('\n## ')[0] ?? '';
  const folders = readdirSync(join(root, 'shared')).filter((name) => statSync(join(root, 'shared', name)).isDirectory());
  it.each(folders)('shared/%s/ is named in the rooms table', (folder) => {
    expect(rooms).toContain(`\`shared/${folder}/\``);
  });
});

// The log is kept below the loop that writes it: the store port and what sits beside a log
// (shared/log/) import nothing from the write loop, the outbox or the publisher, so a store can
// be implemented (functions/adapters/, the in-memory reference) without the loop.
describe('the log is below the write loop', () => {
  it.each(sources('shared/log'))('%s imports nothing from shared/decide, shared/outbox or shared/publish', (file) => {
    const up = imports(readFileSync(join(root, file), 'utf8')).filter((spec) => {
      if (!spec.startsWith('.')) return false;
      return /^shared\/(decide|outbox|publish)\//.test(relative(root, join(root, file, '..', spec)));
    });
    expect(up).toEqual([]);
  });
});

// Issue 20: one ports.ts. Every side effect the service needs besides the store is a port
// declared in shared/ports.ts, so its adapters (functions/aws/, local/, the tests' fakes) and its
// callers meet in one place; the store's ports are shared/log/'s (event-store.ts, pod-archive.ts,
// change-feed.ts). forwarder/ is another program, run in the cluster, and keeps its own.
describe('ports are declared in shared/ports.ts', () => {
  const PORT = /^export interface (\w*(?:Port|Sink|Requeue|Store|Publisher|Scheduler|Putter|Queue|Reader))\b/gm;
  const files = ['shared', 'functions', 'cli', 'local', 'bench', 'cdk', 'console']
    .flatMap((dir) => sources(dir))
    .filter((file) => file !== 'shared/ports.ts' && !file.startsWith('shared/log/'));
  it.each(files)('%s declares no port', (file) => {
    const ports = [...readFileSync(join(root, file), 'utf8').matchAll(PORT)].map((m) => m[1]);
    expect(ports).toEqual([]);
  });
});
