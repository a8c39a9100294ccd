import { readFileSync } from 'node:fs';
import { isJobScenario, JobScenarioSchema, type JobScenario } from '../scenario/job-scenario.ts';
import { formatPath } from './field-path.ts';
import { lineOfPath } from './json-line-of.ts';
import { formatProblem } from '../../shared/contract/jsonl-trace.ts';
import { parseJsonlEvents, type JsonlEvent } from './jsonl-events.ts';
import { EXIT_BAD_INPUT, ReplayError } from './replay-error.ts';

/** A replay input: a corpus scenario, or a JSONL event stream. */
export type ReplayInput =
  | { readonly kind: 'scenario'; readonly scenario: JobScenario }
  | { readonly kind: 'jsonl'; readonly events: readonly JsonlEvent[]; readonly lineCount: number };

/** The most problems reported at once; more only bury the first. */
const MAX_PROBLEMS = 20;

export function loadReplayInput(file: string): ReplayInput {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message;
    throw new ReplayError(`${file}: cannot read: ${why}`, EXIT_BAD_INPUT);
  }
  return parseReplayInput(file, text);
}

/**
 * Tells the two formats apart by shape: a JSON document with `job` and `events` is a scenario;
 * anything whose first line is a JSON value on its own is a JSONL stream.
 */
export function parseReplayInput(file: string, text: string): ReplayInput {
  if (text.trim() === '') throw new ReplayError(`${file}: empty file`, EXIT_BAD_INPUT);
  const lines = text.split('\n');
  const document = tryParse(text);
  if (document.ok && isScenarioShape(document.value)) return scenarioInput(file, text, document.value);
  const firstLine = lines.find((line) => line.trim() !== '') ?? '';
  if (!document.ok && !tryParse(firstLine).ok) {
    // Neither one JSON document nor one JSON value per line: report where the document breaks.
    const line = lineOfPosition(text, document.message);
    throw new ReplayError(`${file}${line === undefined ? '' : `:${line}`}: not valid JSON: ${document.message}`, EXIT_BAD_INPUT);
  }
  if (document.ok && lines.filter((line) => line.trim() !== '').length > 1) {
    throw new ReplayError(
      `${file}: a JSON document that is not a scenario (no "job" and "events"); JSONL input has one event per line`,
      EXIT_BAD_INPUT,
    );
  }
  const result = parseJsonlEvents(text);
  if (!result.ok) {
    const shown = result.problems.slice(0, MAX_PROBLEMS).map((problem) => formatProblem(file, problem));
    const more = result.problems.length - shown.length;
    throw new ReplayError([...shown, ...(more > 0 ? [`… and ${more} more`] : [])].join('\n'), EXIT_BAD_INPUT);
  }
  return { kind: 'jsonl', events: result.events, lineCount: lines.length - (text.endsWith('\n') ? 1 : 0) };
}

function scenarioInput(file: string, text: string, document: unknown): ReplayInput {
  const parsed = JobScenarioSchema.safeParse(document);
  if (parsed.success) return { kind: 'scenario', scenario: parsed.data };
  const problems = parsed.error.issues
    .slice(0, MAX_PROBLEMS)
    .map((issue) => `${file}:${lineOfPath(text, issue.path)}: ${formatPath(issue.path)}: ${issue.message}`);
  throw new ReplayError(problems.join('\n'), EXIT_BAD_INPUT);
}

function isScenarioShape(value: unknown): boolean {
  if (isJobScenario(value)) return true;
  return typeof value === 'object' && value !== null && 'job' in value && 'events' in value;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/** V8 says "… at position 42 (line 3 column 5)"; the line is counted from the position. */
function lineOfPosition(text: string, message: string): number | undefined {
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position === undefined) return undefined;
  return text.slice(0, Number(position)).split('\n').length;
}
