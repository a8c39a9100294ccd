import type { JobSummary, LogEntry } from '../../shared/app/event-store.ts';
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

export interface FleetScanBody {
  readonly cluster?: string;
  readonly namespace?: string;
  readonly since?: string;
  readonly cursor?: string;
  readonly limit?: number;
  readonly segment?: number;
  readonly segments?: number;
}

/** One Job the scan found, with its whole log. */
export interface ScannedJob {
  readonly summary: JobSummary;
  readonly entries: readonly LogEntry[];
}

/**
 * One call's share of a scan-mode fleet what-if: the next whole logs of segment `segment` of
 * `segments`, the Jobs among them that pass the filters, and the signed position to continue
 * from (absent once the segment is read). The cursor is bound to the filters and the segment.
 */
export async function scanFleetPage(deps: QueryDeps, body: FleetScanBody & { segments: number }, streams: number): Promise<{ jobs: ScannedJob[]; next?: string }> {
  const segment = body.segment ?? 0;
  if (segment >= body.segments) throw new BadRequestError([{ path: 'body.segment', message: `must be less than segments (${body.segments})` }]);
  if (body.since !== undefined) throw new BadRequestError([{ path: 'body.segments', message: 'a scan reads every log; with since, list the Jobs newest first (leave segments out)' }]);
  if (!canScan(deps.store)) throw new BadRequestError([{ path: 'body.segments', message: 'this store cannot scan its logs; leave segments out' }]);
  // The list cursor's signature binds a cursor to its filters; the segment is bound the same way.
  const filters: CursorFilters = { kind: 'Job', cluster: body.cluster, namespace: body.namespace, condition: `scan ${segment}/${body.segments}` };
  const after = body.cursor === undefined ? undefined : decodeListCursor(deps.cursorKey, filters, body.cursor, 'body.cursor');
  const until = Date.now() + SCAN_BUDGET_MS;
  const page = await deps.store.scanLogs({ segment, segments: body.segments, streams, until, ...(after === undefined ? {} : { after }) });
  const jobs: ScannedJob[] = [];
  for (const log of page.logs) {
    const summary = log.summary;
    // Streams without a summary were never reconciled: the fleet list does not show them either.
    if (summary?.kind !== 'Job') continue;
    if (body.cluster !== undefined && summary.clusterId !== body.cluster) continue;
    if (body.namespace !== undefined && summary.namespace !== body.namespace) continue;
    jobs.push({ summary, entries: log.entries });
  }
  return { jobs, ...(page.next === undefined ? {} : { next: encodeListCursor(deps.cursorKey, filters, page.next) }) };
}
