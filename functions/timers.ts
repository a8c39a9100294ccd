import { awsStoreDeps } from './commons/aws-deps.ts';
import { createTimersHandler } from './handlers/timers-handler.ts';

/** Lambda entry: EventBridge Scheduler → append a Tick to the Job's log. */
export const handler = createTimersHandler(awsStoreDeps());
