import { awsTriageDeps } from './commons/aws-deps.ts';
import { createTriageHandler } from './handlers/triage-handler.ts';

/** Lambda entry: the writer-failures queue and the ingest DLQ → written again, refused, put back, or parked with the error. */
export const handler = createTriageHandler(awsTriageDeps());
