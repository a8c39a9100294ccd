import { awsReconcileDeps } from './commons/aws-deps.ts';
import { createReconcileHandler } from './handlers/reconcile-handler.ts';

/** Lambda entry: DynamoDB Streams (new log entries) → reconcile each Job named. */
export const handler = createReconcileHandler(awsReconcileDeps());
