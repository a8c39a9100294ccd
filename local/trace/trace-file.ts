import { readFileSync } from 'node:fs';
import { parseTrace, TraceError, type TraceEntry } from '../../shared/contract/jsonl-trace.ts';

// Reading a recorded trace from disk (the format: shared/contract/jsonl-trace.ts). The entries
// are fed to the bus as they are: the bus and the ingest function validate them, as in AWS, and
// refusals show up at /local/rejected. Only lines that are no PutEvents entry at all stop the load.

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
