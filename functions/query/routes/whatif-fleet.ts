import { EMPTY_TALLY, type FleetTally, recordedOutcome, skipJob, tallyJob, type WhatIfReport } from '../../../shared/whatif/index.ts';
import { BadRequestError } from '../http-errors.ts';
import { json, type QueryRoute } from '../http.ts';
import { decodeListCursor, encodeListCursor, invalidCursor } from '../list-cursor.ts';
import { FleetWhatIfBodySchema, parseBody } from '../whatif-body.ts';
import { whatIfEvents } from '../whatif-log.ts';
import { scanFleetPage } from '../whatif-fleet-scan.ts';
import type { JobSummary, LogEntry } from '../../../shared/log/event-store.ts';
import { entryEvent } from '../../../shared/job/index.ts';
import { selectsJob, type FleetSelection } from '../../../shared/fleet/selection.ts';
import { readLog } from '../object-log.ts';
import { selectionOf } from '../selection-body.ts';
import type { QueryDeps } from '../http.ts';

const DEFAULT_PAGE = 100;
const MAX_LIST_PAGE = 200;
/** Whole logs per scan-mode call: about 1 MB of scan pages for small Jobs, so few are read twice. */
const SCAN_PAGE = 1000;
/** Logs read at once within a page: the store's latency, not the fold, bounds a page. */
const READS_IN_FLIGHT = 32;
/**
 * Reading time per list-mode call, as in scan mode (whatif-fleet-scan.ts): past it the call
 * answers the Jobs read so far and a cursor right after the last of them, well inside the
 * query function's timeout (10 s locally, API Gateway's 29 s), however loaded the table is.
 */
const LIST_BUDGET_MS = 3_000;

/**
 * `POST /v1/whatif` with `{"patch", "cluster"?, "namespace"?, "since"?, "cursor"?, "limit"?}`:
 * one page of the fleet what-if. Each call reads one page of the fleet list (newest first)
 * and each listed Job's log, so memory and time per call stay bounded whatever the fleet's
 * size; the client sums the pages' tallies and follows `nextCursor` until there is none.
 * A Job whose patched spec is invalid (a successPolicy on a NonIndexed Job) is counted in
 * `skipped`, and the first refusal is returned as `skippedBecause`.
 *
 * With `segments` (and `segment`), a call instead reads the next whole logs of one part of a
 * parallel scan of every log (whatif-fleet-scan.ts): one request reads many logs, where the list
 * costs one query per Job. The client runs one call chain per segment, side by side.
 */
export const whatIfFleetRoute: QueryRoute = {
  method: 'POST',
  path: '/v1/whatif',
  async handle(request, deps) {
    const body = parseBody(request, FleetWhatIfBodySchema);
    const selection = selectionOf(body);
    const take = (summary: JobSummary, entries: readonly LogEntry[]) => refoldSelected(summary, entries, selection, body.finished === true, body.patch, deps);
    if (body.segments !== undefined) {
      if (body.since !== undefined) throw new BadRequestError([{ path: 'body.segments', message: 'a scan reads every log; with since, list the Jobs newest first (leave segments out)' }]);
      const page = await scanFleetPage(deps, { ...body, segments: body.segments }, selection, body.limit ?? SCAN_PAGE, body.finished ? 'whatif finished' : 'whatif');
      const refolds = page.jobs.map(({ summary, entries }) => take(summary, entries));
      return json(200, { ...tallyOf(await Promise.all(refolds)), ...(page.next === undefined ? {} : { nextCursor: page.next }) });
    }
    const filters = { kind: 'Job' as const, cluster: body.cluster, namespace: body.namespace, ...jobFilters(body) };
    if ((body.limit ?? 0) > MAX_LIST_PAGE) throw new BadRequestError([{ path: 'body.limit', message: `Too big: expected number to be <=${MAX_LIST_PAGE} without segments` }]);
    const cursor = body.cursor === undefined ? undefined : decodeListCursor(deps.cursorKey, filters, body.cursor, 'body.cursor');
    let page;
    try {
      page = await deps.store.listJobs({ kind: 'Job', clusterId: body.cluster, namespace: body.namespace, limit: body.limit ?? DEFAULT_PAGE, cursor });
    } catch (error) {
      if (cursor !== undefined && error instanceof RangeError) throw invalidCursor('is not a valid position in this list', 'body.cursor');
      throw error;
    }
    const since = body.since;
    const listed = since === undefined ? page.items : page.items.filter((summary) => summary.createdAt >= since);
    // The list is newest first: once a Job is older than `since`, every later one is too.
    const reachedSince = listed.length < page.items.length;
    const until = Date.now() + LIST_BUDGET_MS;
    const reports: (Refolded | undefined)[] = [];
    // A chunk at a time, so a slow store ends the call between two chunks, never inside a Job.
    while (reports.length < listed.length && (reports.length === 0 || Date.now() < until)) {
      const chunk = listed.slice(reports.length, reports.length + READS_IN_FLIGHT);
      reports.push(...(await Promise.all(chunk.map((summary) => {
        const stream = { kind: 'Job' as const, clusterId: summary.clusterId, namespace: summary.namespace, uid: summary.uid };
        return readLog(deps.store, stream).then(({ entries }) => take(summary, entries));
      }))));
    }
    // `listed` is a prefix of the page (newest first), so the page's cursors index it too.
    const continueAt = reports.length < listed.length ? page.after[reports.length - 1] : reachedSince ? undefined : page.cursor;
    const next = continueAt === undefined ? {} : { nextCursor: encodeListCursor(deps.cursorKey, filters, continueAt) };
    return json(200, { ...tallyOf(reports), ...next });
  },
};

type Refolded = { summary: JobSummary; report?: WhatIfReport; refused?: string };

/**
 * One Job's what-if, if the selection takes it (its labels, name, owner and family as first
 * observed; with `finished`, a record that holds its outcome); a patch its spec refuses is a
 * skip with the reason, not a failed page.
 */
function refoldSelected(summary: JobSummary, entries: readonly LogEntry[], selection: FleetSelection, finished: boolean, patch: unknown, deps: QueryDeps): Refolded | undefined {
  const log = entries.map(entryEvent);
  const first = log.find((e) => e.type === 'JobObserved');
  if (first?.type === 'JobObserved' && !selectsJob(selection, first.job)) return undefined;
  if (finished && recordedOutcome(log).outcome === 'Running') return undefined;
  try {
    return { summary, report: whatIfEvents(log, patch, deps.config) };
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    return { summary, refused: `${summary.namespace}/${summary.name}: ${error.errors.map((e) => e.message).join('; ')}` };
  }
}

/** The list cursor binds cluster and namespace; the rest of a selection is bound here. */
function jobFilters(body: { selector?: string; namePrefix?: string; owner?: string; family?: string; finished?: boolean; since?: string }): { condition?: string } {
  const { selector, namePrefix, owner, family, finished, since } = body;
  const rest = { selector, namePrefix, owner, family, finished, since };
  return Object.values(rest).every((v) => v === undefined) ? {} : { condition: `whatif ${JSON.stringify(rest)}` };
}

function tallyOf(refolded: readonly (Refolded | undefined)[]): { tally: FleetTally; skippedBecause?: string } {
  let tally: FleetTally = EMPTY_TALLY;
  let skippedBecause: string | undefined;
  for (const one of refolded) {
    if (!one) continue;
    const { summary, report, refused } = one;
    if (report) tally = tallyJob(tally, { cluster: summary.clusterId, namespace: summary.namespace, name: summary.name, uid: summary.uid }, report);
    else {
      skippedBecause ??= refused;
      tally = skipJob(tally);
    }
  }
  return { tally, ...(skippedBecause ? { skippedBecause } : {}) };
}

