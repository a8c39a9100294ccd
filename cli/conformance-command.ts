import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CORPUS_ROOT, PROJECT_CORPUS_DIRS, runConformance } from './conformance/run.ts';

export const CONFORMANCE_HELP = `Usage: jobfold conformance [--dir DIR]...

Runs every scenario file (*.json) of the conformance corpora (../shared/conformance and the
project's test/conformance: k8s-job-integration and k8s-job-unit, translated from upstream's Job
integration and controller tests, and jobset, from the JobSet controller's and webhook's tests)
and prints a field-level diff for each failing checkpoint, then "N passed, M failed". Exits 1 if
any scenario failed.
  --dir DIR   run the files under DIR instead of the default corpora (repeatable)`;

export function conformanceCommand(args: readonly string[]): number {
  const dirs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--help' || arg === '-h') {
      console.log(CONFORMANCE_HELP);
      return 0;
    }
    if (arg === '--dir' && args[i + 1] !== undefined) dirs.push(args[++i] as string);
    else {
      console.error(`jobfold conformance: unknown argument ${arg}\n\n${CONFORMANCE_HELP}`);
      return 2;
    }
  }
  const roots = dirs.length > 0 ? dirs : defaultDirs();
  return runConformance(roots, (line) => console.log(line));
}

function defaultDirs(): string[] {
  return readdirSync(DEFAULT_CORPUS_ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(DEFAULT_CORPUS_ROOT, d.name))
    .concat(PROJECT_CORPUS_DIRS);
}
