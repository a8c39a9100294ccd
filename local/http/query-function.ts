import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { createQueryHandler } from '../../functions/handlers/query-handler.ts';
import { cursorKeyFrom } from '../../functions/query/list-cursor.ts';
import type { CursorKey } from '../../functions/query/signed-cursor.ts';
import type { EventStore } from '../../shared/log/event-store.ts';
import type { PodArchive } from '../../shared/log/pod-archive.ts';
import type { FoldConfig } from '../../shared/job/index.ts';
import { lambdaContext } from '../runtime/lambda-context.ts';

/**
 * The query function (functions/handlers/query-handler.ts), invoked as API Gateway invokes it.
 * List cursors are signed with CURSOR_KEY when set, else with a key drawn at start, so cursors
 * of an earlier run are refused (400), as cursors signed with a rotated key are in AWS.
 */
export function queryFunction(
  store: EventStore & PodArchive,
  config: FoldConfig,
  cursorKey: CursorKey = localCursorKey(),
): (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyResultV2<unknown>> {
  const handler = createQueryHandler({ store, config, cursorKey });
  return (event) => handler(event, lambdaContext('jobfold-query', 10_000));
}

export function localCursorKey(): CursorKey {
  const configured = process.env['CURSOR_KEY'];
  return configured === undefined ? randomBytes(32) : cursorKeyFrom(configured);
}
