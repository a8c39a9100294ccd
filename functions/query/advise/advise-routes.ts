import type { ScannedJob } from '../whatif-fleet-scan.ts';
import { scanFleetPage } from '../whatif-fleet-scan.ts';
import { entryEvent } from '../../../shared/job/index.ts';
import { checkPage, evidencePage, type RecordedJob } from '../../../shared/advise/pages.ts';
import { json, type QueryRoute } from '../http.ts';
import { selectionOf } from '../selection-body.ts';
import { parseBody } from '../whatif-body.ts';
import { AdviseCheckBodySchema, AdviseEvidenceBodySchema } from './advise-body.ts';

// The two passes of `jobfold advise` (docs/advise.md), each one call of one chain of a parallel
// scan of every log (whatif-fleet-scan.ts), with a cursor to the next. The client merges the
// pages, mines the proposals from the evidence (shared/advise/walk.ts), and sends them back
// with the check pass. Memory per call: the logs of one scan page.

/** Whole logs per mining call: about 1 MB of scan pages for small Jobs. */
const EVIDENCE_PAGE = 1000;
/** Whole logs per check call: each is refolded once per proposal of its family. */
const CHECK_PAGE = 250;

const recorded = (jobs: readonly ScannedJob[]): RecordedJob[] =>
  jobs.map(({ summary, entries }) => ({ cluster: summary.clusterId, log: entries.map(entryEvent) }));

/** `POST /v1/advise/evidence`: the evidence of the finished Jobs of one scan page, by family. */
export const adviseEvidenceRoute: QueryRoute = {
  method: 'POST',
  path: '/v1/advise/evidence',
  async handle(request, deps) {
    const body = parseBody(request, AdviseEvidenceBodySchema);
    const selection = selectionOf(body);
    const page = await scanFleetPage(deps, { ...body, segments: body.segments ?? 1 }, selection, body.limit ?? EVIDENCE_PAGE, 'advise-evidence');
    const result = evidencePage(recorded(page.jobs), selection, deps.config);
    return json(200, { ...result, ...(page.next === undefined ? {} : { nextCursor: page.next }) });
  },
};

/** `POST /v1/advise/check`: each proposal over the finished Jobs of its family in one scan page, by exact what-if. */
export const adviseCheckRoute: QueryRoute = {
  method: 'POST',
  path: '/v1/advise/check',
  async handle(request, deps) {
    const body = parseBody(request, AdviseCheckBodySchema);
    const selection = selectionOf(body);
    const page = await scanFleetPage(deps, { ...body, segments: body.segments ?? 1 }, selection, body.limit ?? CHECK_PAGE, 'advise-check');
    const result = checkPage(recorded(page.jobs), selection, body.proposals, deps.config);
    return json(200, { ...result, ...(page.next === undefined ? {} : { nextCursor: page.next }) });
  },
};

export const adviseRoutes: readonly QueryRoute[] = [adviseEvidenceRoute, adviseCheckRoute];
