import { awsKubeDeps } from './commons/aws-deps.ts';
import { createKubeHandler } from './kube/lambda-handler.ts';

/** Lambda entry: API Gateway HTTP API (payload 2.0), route ANY /k8s/{proxy+} → the kube API. */
export const handler = createKubeHandler(awsKubeDeps());
