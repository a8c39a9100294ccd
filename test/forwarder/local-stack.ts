/**
 * What the forwarder's end-to-end test needs from the local stack (`npm start`), in one
 * interface, so that wiring it is one function. The forwarder reaches the stack by endpoint
 * overrides alone (`--events-endpoint`, `--sqs-endpoint`, `--queue-url`), so the stack must
 * speak, on 127.0.0.1:
 *
 * - EventBridge `PutEvents` (AWS JSON 1.1, `X-Amz-Target: AWSEvents.PutEvents`) at
 *   `eventsEndpoint`, taking `jobfold.cluster.<id>` events into the service (parseInbound);
 * - SQS `ReceiveMessage` (long poll), `DeleteMessage` and `SendMessage` (AWS JSON 1.0,
 *   `X-Amz-Target: AmazonSQS.<Operation>`, with `MD5OfBody` on received messages) at
 *   `sqsEndpoint`, with one command queue per cluster whose bodies are the EventBridge event
 *   JSON of the service's `jobfold.control` events for that cluster;
 * - reconciling on its own after events arrive (no manual trigger), so a decided
 *   TerminatePod reaches the cluster's queue.
 */
export interface LocalStack {
  readonly eventsEndpoint: string;
  readonly sqsEndpoint: string;
  readonly region: string;
  readonly eventBusName: string;
  /** The command queue of a cluster (created on first use). */
  queueUrl(clusterId: string): string;
  /** Where the forwarder sends poison commands of a cluster. */
  dlqUrl(clusterId: string): string;
  stop(): Promise<void>;
}

/** Starts the local stack. Not wired yet: the stack is being built elsewhere. */
export async function startLocalStack(): Promise<LocalStack> {
  throw new Error('local stack not available yet');
}
