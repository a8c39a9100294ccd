import { readFileSync } from 'node:fs';
import type * as z from 'zod';
import { isJobScenario, JobScenarioSchema, type JobScenario } from '../scenario/job-scenario.ts';
import { isJobSetScenario, JobSetScenarioSchema, type JobSetScenario } from '../scenario/jobset-scenario.ts';
import { formatPath } from './field-path.ts';
import { lineOfPath } from './json-line-of.ts';
import { isJobSetTrace, parseJobSetTrace, type JobSetTrace } from './jobset-trace.ts';
import { parseJsonlEvents, type JsonlEvent } from './jsonl-events.ts';
import { EXIT_BAD_INPUT, MAX_PROBLEMS, problemsError, ReplayError } from './replay-error.ts';

/**
 * A replay input, told apart by content: a Job's (a corpus scenario, or a JSONL event stream)
 * or a JobSet's (a JobSet scenario, or a JSONL trace with JobSet events).
 */
export type ReplayInput =
  | { readonly kind: 'scenario'; readonly scenario: JobScenario }
  | { readonly kind: 'jsonl'; readonly events: readonly JsonlEvent[]; readonly lineCount: number }
  | { readonly kind: 'jobset-scenario'; readonly scenario: JobSetScenario }
  | { readonly kind: 'jobset-trace'; readonly trace: JobSetTrace; readonly lineCount: number };

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
 * Tells the formats apart by shape: a JSON document with a JobSet, events and checkpoints is a
 * JobSet scenario; JSONL with a `JobSet …` event is a JobSet trace; a JSON document with `job`
 * and `events` is a Job scenario; anything else whose first line is a JSON value on its own is
 * a Job's JSONL stream.
 */
export function parseReplayInput(file: string, text: string): ReplayInput {
  const document = tryParse(text);
  if (document.ok && isJobSetScenario(document.value)) {
    return { kind: 'jobset-scenario', scenario: parseScenario(JobSetScenarioSchema, file, text, document.value) };
  }
  if (isJobSetTrace(text)) return { kind: 'jobset-trace', trace: parseJobSetTrace(file, text), lineCount: lineCount(text) };
  if (text.trim() === '') throw new ReplayError(`${file}: empty file`, EXIT_BAD_INPUT);
  if (document.ok && isScenarioShape(document.value)) {
    return { kind: 'scenario', scenario: parseScenario(JobScenarioSchema, file, text, document.value) };
  }
  const lines = text.split('\n');
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
  if (!result.ok) throw problemsError(file, result.problems);
  return { kind: 'jsonl', events: result.events, lineCount: lineCount(text) };
}

/** The file's lines, a final line break ending the last rather than opening another. */
const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** A scenario document read by its kind's schema; problems are reported as `FILE:LINE: field: message`. */
function parseScenario<T>(schema: z.ZodType<T>, file: string, text: string, document: unknown): T {
  const parsed = schema.safeParse(document);
  if (parsed.success) return parsed.data;
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
