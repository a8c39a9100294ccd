import type * as z from 'zod';
import { FleetQuerySchema, IndexesQuerySchema } from './console/console-params.ts';
import { CommandsQuerySchema } from './commands/commands-params.ts';
import './console/console-schemas.ts';
import { componentSchemas, parameterSchema } from './openapi-schemas.ts';
import {
  HistoryQuerySchema,
  JobSetListQuerySchema,
  ListQuerySchema,
  ObjectPathSchema,
  ExplainQuerySchema,
  ObjectQuerySchema,
  StatusQuerySchema,
} from './params.ts';
import { FleetWhatIfBodySchema, WhatIfBodySchema } from './whatif-body.ts';
import { AdviseCheckBodySchema, AdviseEvidenceBodySchema } from './advise/advise-body.ts';
import './schemas/advise-schemas.ts';

// The OpenAPI 3.1 document of the query API: the source of truth for docs/openapi.yaml
// (`npm run docs`) and GET /v1/openapi.json. Parameters and response schemas are generated from
// the zod schemas the routes parse and answer with; test/unit/query checks that every route is
// described here and every response matches its schema.

type Json = Record<string, unknown>;

const JOB = '/v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}';
const JOBSET = '/v1/clusters/{cluster}/namespaces/{namespace}/jobsets/{name}';

const ref = (id: string): Json => ({ $ref: `#/components/schemas/${id}` });
const jsonContent = (schema: Json): Json => ({ 'application/json': { schema } });
const ok = (description: string, schema: Json): Json => ({ description, content: jsonContent(schema) });
const response = (name: string): Json => ({ $ref: `#/components/responses/${name}` });

/** The query parameters of a strict object schema, one OpenAPI parameter per field. */
function queryParameters(schema: z.ZodObject): Json[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const { schema: fieldSchema, description } = parameterSchema(field as z.ZodType);
    const required = !(field as z.ZodType).safeParse(undefined).success;
    return { name, in: 'query', required, ...(description ? { description } : {}), schema: fieldSchema };
  });
}

const objectPathParameters: Json[] = Object.keys(ObjectPathSchema.shape).map((name) => ({ $ref: `#/components/parameters/${name}` }));

/** A GET on one object: path parameters, its query, and the errors every such route has. */
function objectOperation(operationId: string, tag: string, summary: string, query: z.ZodObject, body: Json): Json {
  return {
    get: {
      operationId,
      tags: [tag],
      summary,
      parameters: [...objectPathParameters, ...queryParameters(query)],
      responses: { 200: body, 400: response('BadRequest'), 404: response('NotFound'), 500: response('InternalError'), 503: response('Unavailable') },
    },
  };
}

/** A GET on a fleet list: its filters and paging, and the errors of a list. */
function listOperation(operationId: string, tag: string, summary: string, query: z.ZodObject, body: Json): Json {
  return {
    get: {
      operationId,
      tags: [tag],
      summary,
      parameters: queryParameters(query),
      responses: { 200: body, 400: response('BadRequest'), 500: response('InternalError'), 503: response('Unavailable') },
    },
  };
}

function pathParameterComponents(): Json {
  return Object.fromEntries(
    Object.entries(ObjectPathSchema.shape).map(([name, field]) => {
      const { schema, description } = parameterSchema(field);
      return [name, { name, in: 'path', required: true, ...(description ? { description } : {}), schema }];
    }),
  );
}

/** A POST with a JSON body: the what-if routes (their body schema is given here). */
function postOperation(operationId: string, tag: string, summary: string, parameters: Json[], body: z.ZodType, result: Json): Json {
  const { schema } = parameterSchema(body);
  return {
    post: {
      operationId,
      tags: [tag],
      summary,
      parameters,
      requestBody: { required: true, content: jsonContent(schema) },
      responses: { 200: result, 400: response('BadRequest'), 404: response('NotFound'), 500: response('InternalError'), 503: response('Unavailable') },
    },
  };
}

const DESCRIPTION = [
  'Read-only API over the logs jobfold keeps for every Kubernetes Job (and JobSet) of the fleet.',
  'Every response is JSON. Errors have the shape `Error`: 400 names each bad parameter',
  '(`query.limit`, `path.name`, `body.patch.spec.backoffLimit`), 404 names the object not found, 405 answers a method',
  'the path does not have (with `Allow`), 500 carries only a request id, never a stack trace, and 503',
  '(with `Retry-After`) says the event store is unavailable or throttled for a moment.',
  'The what-if and advise routes are the only POSTs; they read, and change nothing.',
  'Unknown query parameters are refused with 400.',
].join(' ');

/** Builds the document; `OPENAPI_DOCUMENT` holds the one the API serves. */
export function openApiDocument(): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'jobfold query API', version: '1.0.0', description: DESCRIPTION },
    tags: [
      { name: 'jobs', description: 'Jobs: the fleet list, one Job, its history, explanation and status in time.' },
      { name: 'jobsets', description: 'JobSets: the fleet list, one JobSet, its history and explanation.' },
      { name: 'advise', description: 'Policy advice (docs/advise.md): two paged passes a client combines, as `jobfold advise` and the console do.' },
      { name: 'console', description: 'What the web console reads besides the Job and JobSet routes.' },
      { name: 'meta', description: 'This document.' },
    ],
    paths: {
      '/v1/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          tags: ['meta'],
          summary: 'This OpenAPI document, as JSON',
          responses: { 200: ok('The OpenAPI 3.1 document.', { type: 'object' }), 500: response('InternalError') },
        },
      },
      '/v1/jobs': listOperation('listJobs', 'jobs', 'The fleet list: Jobs newest first, paged', ListQuerySchema, ok('One page of Jobs.', ref('JobList'))),
      [JOB]: objectOperation('getJob', 'jobs', 'The Job with its full status', ObjectQuerySchema, ok('The Job.', ref('JobView'))),
      [`${JOB}/history`]: objectOperation(
        'getJobHistory', 'jobs', "The Job's log, paged by seq", HistoryQuerySchema, ok('One page of log entries.', ref('HistoryPage')),
      ),
      [`${JOB}/explain`]: objectOperation(
        'explainJob', 'jobs', 'Why the Job succeeded or failed, with its evidence', ExplainQuerySchema, ok('The explanation.', ref('Explanation')),
      ),
      [`${JOB}/status`]: objectOperation(
        'getJobStatus', 'jobs', 'The status at a point in history', StatusQuerySchema, ok('The status at that point.', ref('JobStatusAt')),
      ),
      [`${JOB}/commands`]: objectOperation(
        'listJobCommands', 'jobs', 'Every command decided for the Job, oldest first, paged (inside big decisions too)', CommandsQuerySchema,
        ok('One page of commands.', ref('JobCommandsPage')),
      ),
      [`${JOB}/whatif`]: postOperation(
        'whatIfJob', 'jobs', 'The Job refolded under a JSON merge patch of its spec, next to its record',
        [...objectPathParameters, ...queryParameters(ObjectQuerySchema)], WhatIfBodySchema, ok('The what-if report.', ref('WhatIfReport')),
      ),
      [`${JOB}/audit`]: objectOperation(
        'auditJob', 'jobs', "One page of the Job's audit export: spec, entries with their chain hashes", HistoryQuerySchema, ok('One page of the audit export.', ref('AuditPage')),
      ),
      '/v1/whatif': postOperation(
        'whatIfFleet', 'jobs', 'The fleet what-if, one page of Jobs at a time', [], FleetWhatIfBodySchema, ok('One page of the fleet what-if.', ref('FleetWhatIfPage')),
      ),
      '/v1/advise/evidence': postOperation(
        'adviseEvidence', 'advise', 'The advice\'s mining pass: the finished Jobs of one scan page, as their families\' evidence',
        [], AdviseEvidenceBodySchema, ok('One call of the mining pass.', ref('AdviseEvidencePage')),
      ),
      '/v1/advise/check': postOperation(
        'adviseCheck', 'advise', 'The advice\'s check pass: each proposal over the finished Jobs of its family in one scan page, by exact what-if',
        [], AdviseCheckBodySchema, ok('One call of the check pass.', ref('AdviseCheckPage')),
      ),
      '/v1/jobsets': listOperation(
        'listJobSets', 'jobsets', 'The fleet list: JobSets newest first, paged', JobSetListQuerySchema, ok('One page of JobSets.', ref('JobList')),
      ),
      [JOBSET]: objectOperation(
        'getJobSet', 'jobsets', 'The JobSet with its status and child Jobs', ObjectQuerySchema, ok('The JobSet.', ref('JobSetView')),
      ),
      [`${JOBSET}/whatif`]: postOperation(
        'whatIfJobSet', 'jobsets', 'The JobSet refolded under a JSON merge patch of its spec (failure, success or startup policy), next to its record',
        [...objectPathParameters, ...queryParameters(ObjectQuerySchema)], WhatIfBodySchema, ok('The JobSet what-if report.', ref('JobSetWhatIfReport')),
      ),
      [`${JOBSET}/history`]: objectOperation(
        'getJobSetHistory', 'jobsets', "The JobSet's log, paged by seq", HistoryQuerySchema, ok('One page of log entries.', ref('HistoryPage')),
      ),
      [`${JOBSET}/commands`]: objectOperation(
        'listJobSetCommands', 'jobsets', 'Every command decided for the JobSet, oldest first, paged', CommandsQuerySchema,
        ok('One page of commands.', ref('JobSetCommandsPage')),
      ),
      [`${JOBSET}/explain`]: objectOperation(
        'explainJobSet', 'jobsets', 'Why the JobSet completed, failed or restarted', ObjectQuerySchema, ok('The explanation.', ref('JobSetExplanation')),
      ),
      // The web console's reads (functions/query/console/).
      '/v1/fleet': listOperation(
        'getFleet', 'console', 'Jobs and JobSets filtered by state and reason, with counts', FleetQuerySchema, ok('One page of the fleet.', ref('FleetOverview')),
      ),
      [`${JOB}/indexes`]: objectOperation(
        'getJobIndexes', 'console', 'Per-index state of an Indexed Job at a point in history', IndexesQuerySchema, ok('The index states.', ref('JobIndexes')),
      ),
      [`${JOB}/timeline`]: objectOperation(
        'getJobTimeline', 'console', "Every condition change of the Job", ObjectQuerySchema, ok('The condition changes.', ref('JobTimeline')),
      ),
    },
    components: {
      schemas: componentSchemas(),
      parameters: pathParameterComponents(),
      responses: {
        BadRequest: ok('A parameter is invalid or unknown; `errors` names each one.', ref('Error')),
        NotFound: ok('No Job (or JobSet) of that name (and uid) has a history in that cluster, or no such route.', ref('Error')),
        MethodNotAllowed: ok('A method the path does not have; the `Allow` header lists those it has.', ref('Error')),
        InternalError: ok('An unexpected failure; `requestId` identifies it in the logs.', ref('Error')),
        Unavailable: ok('The event store is unavailable or throttled (an outage, DynamoDB Local restarting): retry after `Retry-After` seconds.', ref('Error')),
      },
    },
  };
}

export const OPENAPI_DOCUMENT: Json = openApiDocument();
