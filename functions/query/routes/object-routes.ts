import type * as z from 'zod';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { fleetListRoute } from '../fleet-list.ts';
import { historyPage, type EntryCategory } from '../history-page.ts';
import { json, type QueryDeps, type QueryRoute } from '../http.ts';
import { explainStoredJob } from '../job-explanation.ts';
import { jobEntryCategory } from '../job-entries.ts';
import { jobSetEntryCategory } from '../jobsets/jobset-entries.ts';
import { explainStoredJobSet, storedJobSetView } from '../jobsets/jobset-log-window.ts';
import { findObject, type FoundObject } from '../object-log.ts';
import { COLLECTION, objectPath, objectRoute } from './object-route.ts';
import { ExplainQuerySchema, HistoryQuerySchema, JobSetListQuerySchema, ListQuerySchema, ObjectQuerySchema } from '../params.ts';
import { parseObjectRequest } from '../parse-params.ts';
import { storedJobView } from '../stored-job-view.ts';
import { parseBody, WhatIfBodySchema } from '../whatif-body.ts';
import { whatIfStored } from '../whatif-log.ts';

// The routes every kind of object has, written once: the fleet list (`GET /v1/jobs`,
// `/v1/jobsets`), the object with its status (`GET …/{name}?uid=`), its log paged by seq
// (`…/history?after=&limit=&uid=`), why it stands where it does (`…/explain`) and its log
// refolded under a patched spec (`POST …/whatif` with `{"patch": {…}}`, whatif-log.ts). Each
// kind says how its view and explanation are read; a JobSet's come from its newest snapshot and a
// bounded window of decisions (jobsets/jobset-log-window.ts), a Job's from its snapshot, tail and
// the entries its explanation cites (stored-job-view.ts, job-explanation.ts).

interface ObjectKind<ExplainQuery extends z.ZodType<{ readonly uid?: string | undefined }>> {
  readonly kind: StreamId['kind'];
  readonly listQuery: typeof ListQuerySchema;
  readonly entryCategory: (type: string) => EntryCategory;
  readonly view: (deps: QueryDeps, found: FoundObject) => Promise<unknown>;
  readonly explainQuery: ExplainQuery;
  readonly explain: (deps: QueryDeps, found: FoundObject, query: z.output<ExplainQuery>) => Promise<unknown>;
}

const JOB: ObjectKind<typeof ExplainQuerySchema> = {
  kind: 'Job',
  listQuery: ListQuerySchema,
  entryCategory: jobEntryCategory,
  view: (deps, { summary, stream }) => storedJobView(deps, summary, stream),
  // One page of the pods jobfold asked to delete (a Job of 100,000 pods has that many).
  explainQuery: ExplainQuerySchema,
  explain: (deps, { stream }, query) => explainStoredJob(deps, stream, { after: query.podsAfter, limit: query.podsLimit }),
};

const JOBSET: ObjectKind<typeof ObjectQuerySchema> = {
  kind: 'JobSet',
  listQuery: JobSetListQuerySchema,
  entryCategory: jobSetEntryCategory,
  view: (deps, { summary, stream }) => storedJobSetView(deps.store, summary, stream),
  explainQuery: ObjectQuerySchema,
  explain: (deps, { summary, stream }) => explainStoredJobSet(deps.store, summary, stream),
};

function objectRoutes<ExplainQuery extends z.ZodType<{ readonly uid?: string | undefined }>>(kind: ObjectKind<ExplainQuery>): QueryRoute[] {
  return [
    fleetListRoute(kind.kind, `/v1/${COLLECTION[kind.kind]}`, kind.listQuery),
    objectRoute(kind.kind, '', ObjectQuerySchema, (found, _query, deps) => kind.view(deps, found)),
    objectRoute(kind.kind, '/history', HistoryQuerySchema, ({ summary, stream }, query, deps) =>
      historyPage(deps.store, stream, summary, query, kind.entryCategory)),
    objectRoute(kind.kind, '/explain', kind.explainQuery, (found, query, deps) => kind.explain(deps, found, query)),
    {
      // The body is parsed before the object is looked up (a bad patch is a 400 even for a
      // missing object), so this route does not go through objectRoute.
      method: 'POST',
      path: objectPath(kind.kind, '/whatif'),
      async handle(request, deps) {
        const { path, query } = parseObjectRequest(request, ObjectQuerySchema);
        const { patch } = parseBody(request, WhatIfBodySchema);
        const { stream } = await findObject(deps.store, kind.kind, path, query.uid);
        return json(200, await whatIfStored(deps, stream, patch));
      },
    },
  ];
}

export const jobRoutes: readonly QueryRoute[] = objectRoutes(JOB);
export const jobSetRoutes: readonly QueryRoute[] = objectRoutes(JOBSET);
