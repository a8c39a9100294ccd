import { createHash } from 'node:crypto';
import type { JobSummary, LogEntry } from '../../shared/log/event-store.ts';
import { selectsSummary, selectionText, type FleetSelection } from '../../shared/fleet/selection.ts';
import type { LogScanPage, LogScanQuery } from '../adapters/dynamodb-log-scan.ts';
import { BadRequestError } from './http-errors.ts';
import type { QueryDeps } from './http.ts';
import { decodeListCursor, encodeListCursor, type CursorFilters } from './list-cursor.ts';

/** A store that can read every log in one pass (the DynamoDB store; the in-memory one lists). */
export interface LogScanner {
  scanLogs(query: LogScanQuery): Promise<LogScanPage>;
}

/**
 * Reading time per call: a call ends at the first whole log after it, well inside the query
 * function's timeout (10 s locally, API Gateway's 29 s), however loaded the table is. The
 * refold after the read costs little next to it.
 */
const SCAN_BUDGET_MS = 3_000;

const canScan = (store: object): store is LogScanner => typeof (store as Partial<LogScanner>).scanLogs === 'function';

/** Where one call of a scan-mode read is: its segment of `segments`, and the previous call's cursor. */
export interface ScanCall {
  readonly segment?: number;
  readonly segments: number;
  readonly cursor?: string;
}

/** One Job the scan found, with its whole log. */
export interface ScannedJob {
  readonly summary: JobSummary;
  readonly entries: readonly LogEntry[];
}

/**
 * One call's share of a scan-mode fleet read: the next whole logs of segment `segment` of
 * `segments`, the Jobs among them whose summary the selection takes (cluster, namespace,
 * creation time; the rest of the selection needs the Job, which the caller decodes), and the
 * signed position to continue from (absent once the segment is read). The cursor is bound to
 * the read's purpose (`whatif`, `advise-evidence`, …), the whole selection and the segment.
 */
export async function scanFleetPage(
  deps: QueryDeps,
  call: ScanCall,
  selection: FleetSelection,
  streams: number,
  purpose: string,
): Promise<{ jobs: ScannedJob[]; next?: string }> {
  const segment = call.segment ?? 0;
  if (segment >= call.segments) throw new BadRequestError([{ path: 'body.segment', message: `must be less than segments (${call.segments})` }]);
  if (!canScan(deps.store)) throw new BadRequestError([{ path: 'body.segments', message: 'this store cannot scan its logs (a scan needs the DynamoDB store); the fleet what-if can list instead: leave segments out' }]);
  // The list cursor's signature binds a cursor to its filters; the purpose, the rest of the
  // selection and the segment are bound the same way.
  const bound = createHash('sha256').update(JSON.stringify(selectionText(selection))).digest('base64url').slice(0, 22);
  const filters: CursorFilters = { kind: 'Job', cluster: selection.cluster, namespace: selection.namespace, condition: `${purpose} scan ${segment}/${call.segments} ${bound}` };
  const after = call.cursor === undefined ? undefined : decodeListCursor(deps.cursorKey, filters, call.cursor, 'body.cursor');
  const until = Date.now() + SCAN_BUDGET_MS;
  const page = await deps.store.scanLogs({ segment, segments: call.segments, streams, until, ...(after === undefined ? {} : { after }) });
  const jobs: ScannedJob[] = [];
  for (const log of page.logs) {
    const summary = log.summary;
    // Streams without a summary were never reconciled: the fleet list does not show them either.
    if (summary?.kind !== 'Job' || !selectsSummary(selection, summary)) continue;
    jobs.push({ summary, entries: log.entries });
  }
  return { jobs, ...(page.next === undefined ? {} : { next: encodeListCursor(deps.cursorKey, filters, page.next) }) };
}
