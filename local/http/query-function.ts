import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { createQueryHandler } from '../../functions/handlers/query-handler.ts';
import type { EventStore } from '../../shared/app/event-store.ts';
import type { PodArchive } from '../../shared/app/pod-archive.ts';
import type { FoldConfig } from '../../shared/job/state.ts';
import { lambdaContext } from '../runtime/lambda-context.ts';

/** The query function (functions/handlers/query-handler.ts), invoked as API Gateway invokes it. */
export function queryFunction(
  store: EventStore & PodArchive,
  config: FoldConfig,
): (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyResultV2<unknown>> {
  const handler = createQueryHandler({ store, config });
  return (event) => handler(event, lambdaContext('jobfold-query', 10_000));
}
