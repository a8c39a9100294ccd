import { Duration, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** How long an unread message is kept: the SQS maximum, so an operator has two weeks to act. */
export const RETENTION = Duration.days(14);
/** A message that failed this many receives moves to the dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;

/** How EventBridge retries a queue target before it dead-letters the event: its maximum, 24 h. */
export const TARGET_RETRY = { retryAttempts: 185, maxEventAge: Duration.hours(24) } as const;

export interface QueueWithDlqProps {
  /** At least 6 × the consumer's timeout when a Lambda function consumes the queue. */
  readonly visibilityTimeout?: Duration;
}

/**
 * A work queue and its dead-letter queue, both encrypted (SSE-SQS) and refusing requests that
 * do not use TLS. SSE-SQS rather than a customer key: EventBridge and Lambda write to it without
 * a key policy, and it costs nothing.
 */
export class QueueWithDlq extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: QueueWithDlqProps = {}) {
    super(scope, id);
    this.deadLetterQueue = secureQueue(this, 'Dlq');
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: RETENTION,
      ...(props.visibilityTimeout ? { visibilityTimeout: props.visibilityTimeout } : {}),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
  }
}

/** One encrypted, TLS-only queue with the longest retention. */
export function secureQueue(scope: Construct, id: string, visibilityTimeout?: Duration): Queue {
  return new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: RETENTION,
    ...(visibilityTimeout ? { visibilityTimeout } : {}),
  });
}

/**
 * How long a message of a triaged queue stays hidden after the triage failed it: more than 6 ×
 * the triage's 2-minute timeout (Lambda's advice for SQS sources), and, over its 5 receives, an
 * hour for a store outage to pass before the triage parks what still fails.
 */
export const TRIAGED_VISIBILITY = Duration.minutes(15);

/**
 * A failure destination the dead-letter triage consumes (cdk/constructs/triage.ts): the writer's
 * on-failure queue and the inbound rule's DLQ. No redrive: the triage itself parks a message on
 * its last receive, with the error, so nothing leaves the queue without it.
 */
export function triagedQueue(scope: Construct, id: string, deadLetterOf: string): Queue {
  const queue = secureQueue(scope, id, TRIAGED_VISIBILITY);
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: `This queue is itself a dead-letter destination (${deadLetterOf}); the dead-letter triage consumes it and, `
      + 'on its last receive, parks what it could not settle in the parked queue with the error, so a redrive DLQ would only lose that error.',
  });
  return queue;
}

/**
 * A queue that is the last stop of a failure path (a Lambda on-failure destination, an
 * EventBridge or Scheduler dead-letter target) rather than a redrive DLQ. cdk-nag's SQS3 only
 * recognises redrive DLQs, so the queue is acknowledged with what it is the dead letter of.
 */
export function deadLetterQueue(scope: Construct, id: string, deadLetterOf: string): Queue {
  const queue = secureQueue(scope, id);
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: `This queue is itself a dead-letter destination (${deadLetterOf}); nothing consumes it automatically, `
      + 'operators read and redrive it, so a DLQ behind it would only hide the same messages one step further.',
  });
  return queue;
}
