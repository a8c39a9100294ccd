import type { ScannedJob } from '../whatif-fleet-scan.ts';
import { scanFleetPage } from '../whatif-fleet-scan.ts';
import { entryEvent } from '../../../shared/job/index.ts';
import { checkPage, evidencePage, type RecordedJob } from '../../../shared/advise/pages.ts';
import type * as z from 'zod';
import { json, type QueryDeps, type QueryRoute } from '../http.ts';
import { selectionOf } from '../selection-body.ts';
import type { FleetSelection } from '../../../shared/fleet/selection.ts';
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

/**
 * A pass: its body parsed, one page of its chain of the scan read (`pageSize` whole logs unless
 * the body says `limit`), `answer` computed over the page's Jobs, and the cursor to the next page.
 */
function passRoute<Body extends z.ZodType<z.output<typeof AdviseEvidenceBodySchema>>>(
  path: string,
  bodySchema: Body,
  pageSize: number,
  purpose: string,
  answer: (jobs: RecordedJob[], body: z.output<Body>, selection: FleetSelection, config: QueryDeps['config']) => object,
): QueryRoute {
  return {
    method: 'POST',
    path,
    async handle(request, deps) {
      const body = parseBody(request, bodySchema);
      const selection = selectionOf(body);
      const page = await scanFleetPage(deps, { ...body, segments: body.segments ?? 1 }, selection, body.limit ?? pageSize, purpose);
      const result = answer(recorded(page.jobs), body, selection, deps.config);
      return json(200, { ...result, ...(page.next === undefined ? {} : { nextCursor: page.next }) });
    },
  };
}

/** `POST /v1/advise/evidence`: the evidence of the finished Jobs of one scan page, by family. */
export const adviseEvidenceRoute: QueryRoute = passRoute('/v1/advise/evidence', AdviseEvidenceBodySchema, EVIDENCE_PAGE, 'advise-evidence', (jobs, _body, selection, config) =>
  evidencePage(jobs, selection, config));

/** `POST /v1/advise/check`: each proposal over the finished Jobs of its family in one scan page, by exact what-if. */
export const adviseCheckRoute: QueryRoute = passRoute('/v1/advise/check', AdviseCheckBodySchema, CHECK_PAGE, 'advise-check', (jobs, body, selection, config) =>
  checkPage(jobs, selection, body.proposals, config));

export const adviseRoutes: readonly QueryRoute[] = [adviseEvidenceRoute, adviseCheckRoute];
