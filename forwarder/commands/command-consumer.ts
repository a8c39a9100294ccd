import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { boundedText } from '../../shared/job/index.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import { backoffDelayMs, sleep, type BackoffPolicy } from '../send/backoff.ts';
import { applyCommand, type Outcome } from './apply-command.ts';
import { parseCommandMessage, type PoisonReason } from './command-message.ts';
import { BatchPods, type WatchedPodsReader } from './job-pods.ts';
import type { KubeOps } from './kube-ops.ts';
import { RecentIds } from './recent-ids.ts';

/** The longest long poll SQS allows. */
export const RECEIVE_WAIT_SECONDS = 20;
/**
 * The command queue's redrive maxReceiveCount (cdk/constructs/secure-queue.ts MAX_RECEIVE_COUNT;
 * test/cdk checks they agree). On that receive a command that still fails is dead-lettered by the
 * forwarder itself, with its last error, instead of being moved by the redrive policy without one.
 */
export const COMMAND_MAX_RECEIVES = 5;
/** The `detail` attribute of a dead letter: the error, cut (never inside a character) to this. */
const MAX_DETAIL_BYTES = 4096;
/** The most messages one ReceiveMessage returns (SQS). */
const RECEIVE_MAX = 10;
/**
 * The most messages handled as one batch: while the queue has a backlog (a receive came back
 * full) the consumer receives again at once, up to this many, so a scale-down's commands share
 * one list of their Job's pods per batch (job-pods.ts). Well inside the queue's 5-minute
 * visibility timeout at the forwarder's pace.
 */
export const COMMAND_BATCH_MAX = 100;
/** After a transient failure a message comes back after 5 s, doubling per receive, at most 5 min. */
const RETRY_VISIBILITY = { baseSeconds: 5, maxSeconds: 300 };

export interface CommandConsumerOptions {
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  /** Where poison messages go; without one they stay for the queue's own redrive policy. */
  readonly dlqUrl: string | undefined;
  readonly clusterId: string;
  /** The one namespace the forwarder watches, if it watches one: commands elsewhere are refused. */
  readonly namespace?: string;
  readonly kube: KubeOps;
  readonly metrics: Metrics;
  readonly log: Logger;
  /** Delay after a failed ReceiveMessage. */
  readonly errorBackoff: BackoffPolicy;
  readonly waitTimeSeconds?: number;
  /** The queue's redrive maxReceiveCount (default COMMAND_MAX_RECEIVES). */
  readonly maxReceives?: number;
  readonly random?: () => number;
  /** The clock a batch's pod lists age by, and how long one serves (job-pods.ts, default JOB_PODS_MAX_AGE_MS). */
  readonly now?: () => number;
  readonly podListMaxAgeMs?: number;
  /** The pod watch's view of the Jobs' pods, read instead of a list once the watch has caught up (watched-pods.ts). */
  readonly watchedPods?: WatchedPodsReader;
}

/** Why a message went to the DLQ: it can never be applied, or it failed on every receive. */
export type DeadLetterReason = PoisonReason | 'retries-exhausted';

/**
 * Applies the cluster's commands from its SQS queue, one message at a time, in the order
 * received, in batches of up to COMMAND_BATCH_MAX messages whose guards read each Job's pods from
 * one list (job-pods.ts). A message is deleted only once its effect holds (or can no longer be wanted);
 * a poison message is sent to the DLQ with the reason as a message attribute, then deleted;
 * after a transient failure the message is left to come back when its visibility times out,
 * except on its last receive: then it goes to the DLQ with the error (`retries-exhausted`), so
 * no command dead-letters without its reason (the redrive policy would move it bare).
 */
export class CommandConsumer {
  readonly #o: CommandConsumerOptions;
  readonly #abort = new AbortController();
  readonly #applied = new RecentIds(1000);
  #loop: Promise<void> | undefined;

  constructor(options: CommandConsumerOptions) {
    this.#o = options;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#loop;
  }

  async #run(): Promise<void> {
    const { sqs, queueUrl, metrics, log } = this.#o;
    let failures = 0;
    while (!this.#abort.signal.aborted) {
      let messages: Message[];
      try {
        messages = await this.#receive(this.#o.waitTimeSeconds ?? RECEIVE_WAIT_SECONDS);
        failures = 0;
      } catch (error) {
        if (this.#abort.signal.aborted) break;
        metrics.inc('forwarder_sqs_errors_total', { operation: 'ReceiveMessage' });
        const delayMs = backoffDelayMs(failures++, this.#o.errorBackoff, this.#o.random ?? Math.random);
        log.warn('ReceiveMessage failed', { queueUrl, delayMs, error });
        await sleep(delayMs, this.#abort.signal);
        continue;
      }
      // A backlog: take more at once (no wait), so its commands share their Jobs' pod lists.
      let last = messages.length;
      while (last === RECEIVE_MAX && messages.length + RECEIVE_MAX <= COMMAND_BATCH_MAX && !this.#abort.signal.aborted) {
        try {
          const more = await this.#receive(0);
          last = more.length;
          messages.push(...more);
        } catch (error) {
          // What was received is handled; the next receive backs off if SQS stays unreachable.
          if (this.#abort.signal.aborted) break;
          metrics.inc('forwarder_sqs_errors_total', { operation: 'ReceiveMessage' });
          log.warn('ReceiveMessage failed', { queueUrl, error });
          break;
        }
      }
      const counted = (pages: number | undefined, listed: number) => {
        if (pages === undefined) return metrics.inc('forwarder_guard_watch_reads_total');
        metrics.inc('forwarder_guard_lists_total');
        metrics.inc('forwarder_guard_list_pages_total', {}, pages);
        metrics.inc('forwarder_guard_pods_listed_total', {}, listed);
      };
      const pods = new BatchPods(this.#o.kube, {
        ...(this.#o.now ? { now: this.#o.now } : {}),
        ...(this.#o.podListMaxAgeMs ? { maxAgeMs: this.#o.podListMaxAgeMs } : {}),
        ...(this.#o.watchedPods ? { watched: this.#o.watchedPods } : {}),
        counted,
      });
      for (const message of messages) await this.#handle(message, pods);
    }
  }

  async #receive(waitTimeSeconds: number): Promise<Message[]> {
    const output = await this.#o.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: this.#o.queueUrl,
        WaitTimeSeconds: waitTimeSeconds,
        MaxNumberOfMessages: RECEIVE_MAX,
        MessageSystemAttributeNames: ['ApproximateReceiveCount'],
      }),
      { abortSignal: this.#abort.signal },
    );
    return output.Messages ?? [];
  }

  async #handle(message: Message, pods: BatchPods): Promise<void> {
    const parsed = parseCommandMessage(message.Body, this.#o.clusterId);
    const fields = { messageId: message.MessageId, receiveCount: message.Attributes?.ApproximateReceiveCount };
    switch (parsed.kind) {
      case 'ignored':
        this.#count(parsed.detailType, 'ignored');
        return this.#delete(message);
      case 'poison':
        return this.#deadLetter(message, parsed.reason, parsed.message, parsed.detailType);
      case 'command': {
        const { command } = parsed;
        const target = command.type === 'DeleteJobSet' ? { jobSet: command.jobSetName } : { job: command.jobName };
        const at = { ...fields, type: command.type, commandId: command.commandId, namespace: command.namespace, ...target };
        const watched = this.#o.namespace;
        const outcome: Outcome = watched !== undefined && command.namespace !== watched
          ? { kind: 'poison', reason: 'outside-watched-namespace', message: `namespace ${command.namespace} is not the watched namespace ${watched}` }
          : this.#applied.has(command.commandId)
            ? { kind: 'done', note: 'duplicate' }
            : await applyCommand(command, this.#o.kube, pods);
        switch (outcome.kind) {
          case 'done':
            this.#applied.add(command.commandId);
            this.#count(command.type, 'done');
            this.#o.log.info('command applied', { ...at, note: outcome.note });
            return this.#delete(message);
          case 'refused':
            // Not remembered as applied: the same command, decided again once jobfold's view has
            // caught up (its commandId names the pod, not the decision), is applied afresh.
            this.#count(command.type, 'refused');
            this.#o.log.info('command refused by the live Job and pods', { ...at, reason: outcome.reason, message: outcome.message });
            return this.#delete(message);
          case 'transient': {
            const receives = receiveCount(message);
            const last = receives >= (this.#o.maxReceives ?? COMMAND_MAX_RECEIVES);
            if (last && this.#o.dlqUrl) {
              this.#o.log.error('command failed on its last receive; dead-lettered with its error', { ...at, error: outcome.error });
              return this.#deadLetter(message, 'retries-exhausted', `failed on ${receives} receives; last error: ${outcome.error}`, command.type);
            }
            this.#count(command.type, 'transient');
            this.#o.log[last ? 'error' : 'warn']('command failed; it will be redelivered', { ...at, error: outcome.error });
            return this.#retryLater(message);
          }
          case 'poison':
            this.#o.log.error('command refused', { ...at, reason: outcome.reason, message: outcome.message });
            this.#o.metrics.inc('forwarder_commands_refused_total', { type: command.type, reason: outcome.reason });
            return this.#deadLetter(message, outcome.reason, outcome.message, command.type);
          default: {
            const _exhaustive: never = outcome;
            return _exhaustive;
          }
        }
      }
      default: {
        const _exhaustive: never = parsed;
        return _exhaustive;
      }
    }
  }

  async #deadLetter(message: Message, reason: DeadLetterReason, detail: string, type = 'unknown'): Promise<void> {
    const { sqs, dlqUrl, queueUrl, metrics, log } = this.#o;
    this.#count(type, reason === 'retries-exhausted' ? 'dead-lettered' : 'poison');
    if (!dlqUrl) {
      log.error('poison message and no DLQ configured; leaving it for the queue redrive policy', { messageId: message.MessageId, reason, detail });
      return;
    }
    try {
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: dlqUrl,
          MessageBody: message.Body ?? '',
          MessageAttributes: {
            reason: { DataType: 'String', StringValue: reason },
            detail: { DataType: 'String', StringValue: boundedText(detail, MAX_DETAIL_BYTES) || reason },
            receiveCount: { DataType: 'Number', StringValue: String(receiveCount(message)) },
            sourceQueueUrl: { DataType: 'String', StringValue: queueUrl },
            sourceMessageId: { DataType: 'String', StringValue: message.MessageId ?? 'unknown' },
          },
        }),
      );
    } catch (error) {
      metrics.inc('forwarder_sqs_errors_total', { operation: 'SendMessage' });
      log.error('could not send a poison message to the DLQ; it will be redelivered', { messageId: message.MessageId, reason, error });
      return;
    }
    metrics.inc('forwarder_dead_letters_total', { reason });
    log.error('poison message sent to the DLQ', { messageId: message.MessageId, reason, detail });
    await this.#delete(message);
  }

  async #delete(message: Message): Promise<void> {
    try {
      await this.#o.sqs.send(new DeleteMessageCommand({ QueueUrl: this.#o.queueUrl, ReceiptHandle: message.ReceiptHandle }));
    } catch (error) {
      // Redelivery is harmless: every command is idempotent (uid preconditions, command ids).
      this.#o.metrics.inc('forwarder_sqs_errors_total', { operation: 'DeleteMessage' });
      this.#o.log.warn('DeleteMessage failed; the message will be redelivered', { messageId: message.MessageId, error });
    }
  }

  /**
   * Brings a message back sooner than the queue's visibility timeout (minutes), with backoff
   * per receive; the queue's redrive policy still bounds the attempts. If this fails, the
   * message simply comes back later.
   */
  async #retryLater(message: Message): Promise<void> {
    const receives = receiveCount(message);
    const seconds = Math.min(RETRY_VISIBILITY.maxSeconds, RETRY_VISIBILITY.baseSeconds * 2 ** Math.min(receives - 1, 10));
    try {
      await this.#o.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: this.#o.queueUrl, ReceiptHandle: message.ReceiptHandle, VisibilityTimeout: seconds }));
    } catch (error) {
      this.#o.metrics.inc('forwarder_sqs_errors_total', { operation: 'ChangeMessageVisibility' });
      this.#o.log.warn('ChangeMessageVisibility failed; the message comes back after the queue visibility timeout', { messageId: message.MessageId, error });
    }
  }

  #count(detailType: string, outcome: string): void {
    this.#o.metrics.inc('forwarder_commands_total', { type: detailType, outcome });
  }
}

/** Which receive of the message this is (1 on the first). */
function receiveCount(message: Message): number {
  return Number(message.Attributes?.ApproximateReceiveCount ?? '1') || 1;
}
