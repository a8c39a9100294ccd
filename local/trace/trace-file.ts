import { readFileSync } from 'node:fs';
import { formatProblem, type JsonlProblem } from '../../cli/replay/jsonl-events.ts';

// A recorded trace: JSONL, one EventBridge PutEvents entry per line, as the forwarders send them
// (`{"Source": "jobfold.cluster.<id>", "DetailType": "Pod Observed", "Detail": "{…}"}`; see
// `jobfold replay --help`). `Detail` may also be written as an object. The entries are fed to
// the bus as they are: the bus and the ingest function validate them, as in AWS, and refusals
// show up at /local/rejected. Only lines that are no PutEvents entry at all stop the load.

export interface TraceEntry {
  /** 1-based line in the file. */
  readonly line: number;
  readonly Source: string;
  readonly DetailType: string;
  /** JSON text, as PutEvents takes it. */
  readonly Detail: string;
}

/** A trace that cannot be loaded; the message has one `FILE:LINE: field: problem` per line. */
export class TraceError extends Error {
  override name = 'TraceError';
}

/** Reads and parses a trace file; throws TraceError. */
export function loadTrace(file: string): TraceEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TraceError(`${file}: cannot read: ${(error as Error).message}`);
  }
  return parseTrace(file, text);
}

export function parseTrace(file: string, text: string): TraceEntry[] {
  const entries: TraceEntry[] = [];
  const problems: JsonlProblem[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.push({ line, path: '', message: `not valid JSON: ${(error as Error).message}` });
      continue;
    }
    const entry = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
    const missing = (['Source', 'DetailType', 'Detail'] as const).find((field) => entry[field] === undefined);
    if (missing) {
      problems.push({ line, path: missing, message: 'missing: each line is a PutEvents entry ("Source", "DetailType", "Detail")' });
      continue;
    }
    const detail = entry['Detail'];
    entries.push({
      line,
      Source: String(entry['Source']),
      DetailType: String(entry['DetailType']),
      Detail: typeof detail === 'string' ? detail : JSON.stringify(detail),
    });
  }
  if (problems.length > 0) throw new TraceError(problems.slice(0, 20).map((p) => formatProblem(file, p)).join('\n'));
  if (entries.length === 0) throw new TraceError(`${file}: no events`);
  return entries;
}
