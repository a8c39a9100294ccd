// The JSONL trace: one EventBridge PutEvents entry per line, as the cluster forwarders send them
// (`{"Source": "jobfold.cluster.<id>", "DetailType": "Pod Observed", "Detail": "{…}"}`; the
// details are the inbound contract of docs/events.md). `npm start --replay` feeds one to the
// local bus, `jobfold replay` folds one, the bench and the sample builder write them, and the
// tests read them: the shape and its error report live here, below all of them. `Detail` may
// be written as an object; it is carried as JSON text, as PutEvents takes it. Only the envelope
// is checked here: the bus and ingest validate the details, as in AWS.

/** One line of a trace: a PutEvents entry, and the (1-based) file line it came from. */
export interface TraceEntry {
  readonly line: number;
  readonly Source: string;
  readonly DetailType: string;
  /** JSON text, as PutEvents takes it. */
  readonly Detail: string;
}

/** What is wrong with a line: the field (empty for the line as a whole) and why. */
export interface JsonlProblem {
  readonly line: number;
  readonly path: string;
  readonly message: string;
}

/** A trace that cannot be read; the message has one `FILE:LINE: field: problem` per line. */
export class TraceError extends Error {
  override name = 'TraceError';
}

/** Problems reported in one TraceError, so a wrong file does not print a million lines. */
const MAX_REPORTED_PROBLEMS = 20;

/** `FILE:LINE: field: message`, the way compilers report. */
export function formatProblem(file: string, problem: JsonlProblem): string {
  const field = problem.path === '' ? '' : `${problem.path}: `;
  return `${file}:${problem.line}: ${field}${problem.message}`;
}

/** Parses a trace's text (blank lines skipped); throws TraceError naming every bad line's field. */
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
  if (problems.length > 0) {
    const reported = problems.slice(0, MAX_REPORTED_PROBLEMS).map((p) => formatProblem(file, p));
    const more = problems.length - reported.length;
    throw new TraceError([...reported, ...(more > 0 ? [`${file}: … and ${more} more bad lines`] : [])].join('\n'));
  }
  if (entries.length === 0) throw new TraceError(`${file}: no events`);
  return entries;
}

/** One line of a trace, as `parseTrace` reads it back (no trailing newline). */
export function traceLine(entry: Pick<TraceEntry, 'Source' | 'DetailType' | 'Detail'>): string {
  return JSON.stringify({ Source: entry.Source, DetailType: entry.DetailType, Detail: entry.Detail });
}
