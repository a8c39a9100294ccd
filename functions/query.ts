import { awsQueryDeps } from './commons/aws-deps.ts';
import { createQueryHandler } from './handlers/query-handler.ts';

/** Lambda entry: API Gateway HTTP API (payload 2.0) → the query routes. */
export const handler = createQueryHandler(awsQueryDeps());
