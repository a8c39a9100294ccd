import { awsIngestDeps } from './commons/aws-deps.ts';
import { createIngestHandler } from './handlers/ingest-handler.ts';

/** Lambda entry: SQS (ingest queue fed by the bus) → validate → append. */
export const handler = createIngestHandler(awsIngestDeps());
