import { awsWriterDeps } from './commons/aws-deps.ts';
import { createWriterHandler } from './handlers/writer-handler.ts';

/** Lambda entry: Kinesis (cluster events and timers, partitioned by Job) → the Job's single log writer. */
export const handler = createWriterHandler(awsWriterDeps());
