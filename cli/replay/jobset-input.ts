import { readFileSync } from 'node:fs';
import { formatPath } from './field-path.ts';
import { lineOfPath } from './json-line-of.ts';
import { isJobSetScenario, JobSetScenarioSchema, type JobSetScenario } from '../scenario/jobset-scenario.ts';
import { isJobSetTrace, parseJobSetTrace, type JobSetTrace } from './jobset-trace.ts';
import { EXIT_BAD_INPUT, ReplayError } from './replay-error.ts';

/** A JobSet replay input: a JobSet scenario, or a JSONL trace with JobSet events. */
export type JobSetReplayInput =
  | { readonly kind: 'jobset-scenario'; readonly scenario: JobSetScenario }
  | { readonly kind: 'jobset-trace'; readonly trace: JobSetTrace };

/** The most problems reported at once. */
const MAX_PROBLEMS = 20;

/**
 * Reads FILE and returns it as a JobSet input, or undefined when it is none (a Job input, or a
 * file that cannot be read: the Job replay reports those). A JobSet input with problems throws
 * a ReplayError naming FILE:LINE: field.
 */
export function loadJobSetReplayInput(file: string): JobSetReplayInput | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return parseJobSetReplayInput(file, text);
}

/** Tells a JobSet input by shape: a scenario with `jobset`, or JSONL with a `JobSet …` event. */
export function parseJobSetReplayInput(file: string, text: string): JobSetReplayInput | undefined {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    document = undefined;
  }
  if (document !== undefined && isJobSetScenario(document)) {
    const parsed = JobSetScenarioSchema.safeParse(document);
    if (parsed.success) return { kind: 'jobset-scenario', scenario: parsed.data };
    const problems = parsed.error.issues
      .slice(0, MAX_PROBLEMS)
      .map((issue) => `${file}:${lineOfPath(text, issue.path)}: ${formatPath(issue.path)}: ${issue.message}`);
    throw new ReplayError(problems.join('\n'), EXIT_BAD_INPUT);
  }
  if (isJobSetTrace(text)) return { kind: 'jobset-trace', trace: parseJobSetTrace(file, text) };
  return undefined;
}
