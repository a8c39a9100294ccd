import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App } from 'aws-cdk-lib';
import { buildApp } from '../cdk/app.ts';

// Each function's cold start as Lambda pays it, measured without AWS: the service stack is
// synthesized with its real bundling (the local esbuild, the options cdk/constructs/
// service-function.ts deploys with), and each bundle is imported by a fresh Node process — the
// Node running this script, 24 under `npm run bench` — RUNS times. Reported per function: the
// bundle's bytes, the median time to import it (its module init: what Lambda's Init Duration
// adds to the runtime's own start; with the function's NODE_OPTIONS, if its environment sets any) and the CPU time that import took (steadier than wall time on
// a shared machine), and the median wall time of the whole process (the runtime's start
// included, as a ceiling). The environment is the function's own from the template, with
// placeholders for the values CloudFormation resolves at deploy time.

const HELP = `Usage: node bench/cold-start.ts [--runs N] [--json] [--cpu-prof DIR]
  --runs N        fresh processes per function (default 10); the medians are printed
  --json          one JSON object instead of the table
  --cpu-prof DIR  also import each bundle once more under --cpu-prof: DIR/<function>/ gets the
                  bundle, its source map and the profile (read it with
                  node bench/profile-top.ts DIR/<function>/*.cpuprofile --by package)`;

interface Figures {
  readonly function: string;
  readonly bundleBytes: number;
  readonly sourceMapBytes: number;
  readonly memoryMb: number;
  readonly importMsMedian: number;
  readonly importCpuMsMedian: number;
  readonly processMsMedian: number;
}

function parseArgs(argv: readonly string[]): { runs: number; json: boolean; profileDir: string | undefined } {
  let runs = 10;
  let json = false;
  let profileDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      console.log(HELP);
      process.exit(0);
    } else if (arg === '--json') json = true;
    else if (arg === '--runs') runs = Number(argv[++i]);
    else if (arg === '--cpu-prof') profileDir = argv[++i];
    else throw new Error(`unknown argument ${arg}\n${HELP}`);
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs: a positive integer');
  if (profileDir === undefined && argv.includes('--cpu-prof')) throw new Error('--cpu-prof: a directory');
  return { runs, json, profileDir };
}

type Template = { Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }> };

/** A deploy-time value (Ref, GetAtt, Join…) as a placeholder a handler's environment parsing accepts. */
const placeholder = (name: string, value: unknown): string =>
  typeof value === 'string'
    ? value
    : name.endsWith('_ARN')
      ? `arn:aws:bench:eu-west-1:000000000000:${name.toLowerCase()}`
      : `bench-placeholder-${name.toLowerCase()}`.padEnd(48, '-'); // long enough for a secret (CURSOR_KEY)

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** Imports `file` in a fresh Node process (with `nodeOptions` first); its wall and CPU ms, and the whole process's. */
function importOnce(file: string, env: Record<string, string>, nodeOptions: readonly string[] = []): { importMs: number; importCpuMs: number; processMs: number } {
  // Wall time and CPU time of the import: on a shared machine the CPU time is the steadier figure.
  const script = `const t = performance.now(); const c = process.cpuUsage(); const m = await import(${JSON.stringify(pathToFileURL(file).href)});
if (typeof m.handler !== 'function') throw new Error('no handler export');
const cpu = process.cpuUsage(c); console.log(performance.now() - t, (cpu.user + cpu.system) / 1000);`;
  const started = performance.now();
  const child = spawnSync(process.execPath, [...nodeOptions, '--input-type=module', '-e', script], {
    encoding: 'utf8',
    cwd: tmpdir(),
    env: { PATH: process.env['PATH'] ?? '', AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'bench', ...env },
  });
  const processMs = performance.now() - started;
  if (child.status !== 0) throw new Error(`${file}: ${child.stderr.trim()}`);
  const [wall, cpu] = (child.stdout.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  return { importMs: wall ?? Number.NaN, importCpuMs: cpu ?? Number.NaN, processMs };
}

function measure(file: string, env: Record<string, string>, runs: number): { importMs: number[]; importCpuMs: number[]; processMs: number[] } {
  const all = Array.from({ length: runs }, () => importOnce(file, env));
  return { importMs: all.map((r) => r.importMs), importCpuMs: all.map((r) => r.importCpuMs), processMs: all.map((r) => r.processMs) };
}

/** The bundle and its map copied into `dir`, imported once there under --cpu-prof; returns the profile's path. */
function profileImport(bundle: string, env: Record<string, string>, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const copy = join(dir, 'index.mjs');
  copyFileSync(bundle, copy);
  copyFileSync(`${bundle}.map`, `${copy}.map`);
  // Sampled every 100 µs (the default 1 ms gives an init of ~300 ms too few samples to rank modules).
  importOnce(copy, env, ['--cpu-prof', '--cpu-prof-interval', '100', `--cpu-prof-dir=${dir}`]);
  const profile = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile')).sort().at(-1);
  if (profile === undefined) throw new Error(`${dir}: node wrote no CPU profile`);
  return join(dir, profile);
}

const { runs, json, profileDir } = parseArgs(process.argv.slice(2));
const outdir = mkdtempSync(join(tmpdir(), 'jobfold-cold-start-'));
try {
  const cdkJson = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')) as { context?: Record<string, unknown> };
  const { app, service } = buildApp(new App({ outdir, context: cdkJson.context ?? {} }));
  const assembly = app.synth();
  const template = assembly.getStackByName(service.stackName).template as Template;
  const figures: Figures[] = [];
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    // The asset is the bundle's directory in the cloud assembly: asset.<hash>, named by its S3 key.
    const s3Key = (resource.Properties?.['Code'] as { S3Key?: unknown } | undefined)?.S3Key;
    const assetPath = typeof s3Key === 'string' ? `asset.${s3Key.replace(/\.zip$/, '')}` : undefined;
    const description = String(resource.Properties?.['Description'] ?? '');
    const name = /^jobfold (\S+)/.exec(description)?.[1]?.replace(/:$/, '');
    if (typeof assetPath !== 'string' || name === undefined) continue; // CDK's own helper functions
    const bundle = join(outdir, assetPath, 'index.mjs');
    const variables = ((resource.Properties?.['Environment'] as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {});
    const env = Object.fromEntries(Object.entries(variables).map(([key, value]) => [key, placeholder(key, value)]));
    const { importMs, importCpuMs, processMs } = measure(bundle, env, runs);
    if (profileDir !== undefined) console.error(`${name}: ${profileImport(bundle, env, join(resolve(profileDir), name))}`);
    figures.push({
      function: name,
      bundleBytes: statSync(bundle).size,
      sourceMapBytes: statSync(`${bundle}.map`).size,
      memoryMb: Number(resource.Properties?.['MemorySize'] ?? 0),
      importMsMedian: Math.round(median(importMs) * 10) / 10,
      importCpuMsMedian: Math.round(median(importCpuMs) * 10) / 10,
      processMsMedian: Math.round(median(processMs) * 10) / 10,
    });
  }
  figures.sort((a, b) => a.function.localeCompare(b.function));
  if (json) {
    console.log(JSON.stringify({ node: process.version, runs, functions: figures }));
  } else {
    console.log(`Cold starts (${process.version}, median of ${runs} fresh processes each)`);
    console.log('function          bundle     map        memory  import (init)   its CPU   whole process');
    for (const f of figures) {
      console.log(
        `${f.function.padEnd(17)} ${(f.bundleBytes / 1e6).toFixed(2).padStart(6)} MB ${(f.sourceMapBytes / 1e6).toFixed(2).padStart(6)} MB ${String(f.memoryMb).padStart(5)} MB ${f.importMsMedian.toFixed(1).padStart(10)} ms ${f.importCpuMsMedian.toFixed(1).padStart(7)} ms ${f.processMsMedian.toFixed(1).padStart(11)} ms`,
      );
    }
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
