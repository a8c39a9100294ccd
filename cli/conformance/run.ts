import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusKinds } from './kinds/index.ts';
import type { FieldDiff, ScenarioResult } from './types.ts';

/** ../shared/conformance beside the project: the default corpus. */
export const DEFAULT_CORPUS_ROOT = fileURLToPath(new URL('../../../shared/conformance/', import.meta.url));

/**
 * The project's own corpus, run with ../shared/conformance: scenarios translated from
 * upstream's Job integration tests (test/conformance/k8s-job-integration/README.md), from Job
 * controller unit tests the shared corpus leaves out (k8s-job-unit/README.md), and from the
 * JobSet controller's and webhook's tests of dependsOn, coordinator, managedBy and
 * ttlSecondsAfterFinished (jobset/README.md).
 */
export const PROJECT_CORPUS_DIRS: readonly string[] = [
  fileURLToPath(new URL('../../test/conformance/k8s-job-integration/', import.meta.url)),
  fileURLToPath(new URL('../../test/conformance/k8s-job-unit/', import.meta.url)),
  fileURLToPath(new URL('../../test/conformance/jobset/', import.meta.url)),
];

/** Every scenario file (*.json) under the given directories, recursively, in name order. */
export function scenarioFiles(dirs: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) files.push(path);
    }
  };
  for (const dir of dirs) walk(dir);
  return files;
}

/** Runs one file with the corpus kind that recognises it. Never throws. */
export function runScenarioFile(file: string): ScenarioResult {
  const id = basename(file, '.json');
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { id, file, diffs: [], error: `cannot read JSON: ${(error as Error).message}` };
  }
  const kind = corpusKinds.find((k) => k.matches(document));
  if (!kind) return { id, file, diffs: [], error: 'no corpus format recognises this file' };
  try {
    return kind.run(document, file);
  } catch (error) {
    return { id, file, diffs: [], error: `crashed: ${(error as Error).stack ?? String(error)}` };
  }
}

export const passed = (result: ScenarioResult): boolean => !result.error && result.diffs.length === 0;

/** Human-readable failure report: one line per differing field. */
export function formatFailure(result: ScenarioResult, root: string): string {
  const lines = [`FAIL ${result.id} (${relative(root, result.file)})`];
  if (result.error) lines.push(`  ${result.error}`);
  for (const diff of result.diffs) lines.push(`  ${formatDiff(diff)}`);
  return lines.join('\n');
}

function formatDiff(diff: FieldDiff): string {
  return `${diff.at}: ${diff.path}: expected ${JSON.stringify(diff.expected)}, got ${JSON.stringify(diff.actual)}`;
}

/** The conformance command: runs every file, prints failures, ends with "N passed, M failed". */
export function runConformance(dirs: readonly string[], out: (line: string) => void): number {
  const files = scenarioFiles(dirs);
  let ok = 0;
  let failed = 0;
  for (const file of files) {
    const result = runScenarioFile(file);
    if (passed(result)) ok++;
    else {
      failed++;
      out(formatFailure(result, process.cwd()));
    }
  }
  out(`${ok} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
