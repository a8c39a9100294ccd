import { awsPublishDeps } from './commons/aws-deps.ts';
import { createPublishHandler } from './handlers/publish-handler.ts';

/** Lambda entry: DynamoDB Streams (new outbox items) and a 1-minute schedule → PutEvents. */
export const handler = createPublishHandler(awsPublishDeps());
