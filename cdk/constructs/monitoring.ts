import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm, ComparisonOperator, Dashboard, GraphWidget, MathExpression, Metric, TextWidget, TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IStream } from 'aws-cdk-lib/aws-kinesis';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic, type ITopic } from 'aws-cdk-lib/aws-sns';
import { Key } from 'aws-cdk-lib/aws-kms';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { POWERTOOLS_ENVIRONMENT } from './service-function.ts';

/** Stream records expire after 24 h; page long before, while there is time to fix the consumer. */
export const ITERATOR_AGE_ALARM_MS = 5 * 60 * 1000;
const PERIOD = Duration.minutes(5);

export interface MonitoringProps {
  readonly functions: Readonly<Record<string, IFunction>>;
  /** Consumers of a stream (the ingest stream's writer, the table stream's), watched for iterator age. */
  readonly streamConsumers: Readonly<Record<string, IFunction>>;
  /** Every queue where a message means something was not processed. */
  readonly deadLetterQueues: Readonly<Record<string, IQueue>>;
  readonly ingestStream: IStream;
  /** Each cluster's command queue, by cluster id: a dead forwarder leaves commands waiting. */
  readonly commandQueues: Readonly<Record<string, IQueue>>;
  readonly api: HttpApi;
  /** An existing topic for the alarms; without it the stack creates one (output AlarmTopicArn). */
  readonly alarmTopicArn?: string;
}

/** A forwarder polls continuously; a command 10 minutes old means no forwarder consumes it. */
export const COMMAND_AGE_ALARM_SECONDS = 600;

/**
 * Alarms on what needs a person (a dead letter, a function error, a stream falling behind) and
 * one dashboard of the whole path: events in, decisions, commands out, the API. Every alarm
 * notifies one SNS topic: the one given as context `alarmTopicArn`, else one the stack creates
 * (encrypted with its own key, which CloudWatch may use); subscribe the on-call to it.
 * docs/deploy.md lists every alarm, what it means and what to do.
 */
export class Monitoring extends Construct {
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  readonly topic: ITopic;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.topic = props.alarmTopicArn ? Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn) : alarmTopic(this);
    const action = new SnsAction(this.topic);
    const alarm = (name: string, metric: IMetric, threshold: number, description: string) => {
      const created = new Alarm(this, name, {
        metric, threshold, evaluationPeriods: 1, alarmDescription: description,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(action);
      this.alarms.push(created);
    };

    for (const [name, queue] of Object.entries(props.deadLetterQueues)) {
      alarm(`${name}Depth`, queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }), 1,
        `Messages in ${name}: something was not processed. Read them (docs/deploy.md, "Dead letters"), fix, redrive.`);
    }
    for (const [name, fn] of Object.entries(props.functions)) {
      alarm(`${name}Errors`, fn.metricErrors({ period: PERIOD, statistic: 'Sum' }), 1,
        `The ${name} function failed. Its log group has the error; retries and dead letters keep the events.`);
    }
    for (const [name, fn] of Object.entries(props.streamConsumers)) {
      alarm(`${name}IteratorAge`, fn.metric('IteratorAge', { period: PERIOD, statistic: 'Maximum' }), ITERATOR_AGE_ALARM_MS,
        `${name} is behind its stream by 5 minutes or more (the writer: cluster events wait to be logged); records expire after 24 h (table) or 7 days (ingest).`);
    }
    for (const [cluster, queue] of Object.entries(props.commandQueues)) {
      alarm(`CommandsAge-${cluster}`, queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }), COMMAND_AGE_ALARM_SECONDS,
        `A command for cluster ${cluster} has waited 10 minutes or more: its forwarder is not consuming (down, or no access to the queue).`);
    }
    alarm('ApiServerErrors', props.api.metricServerError({ period: PERIOD, statistic: 'Sum' }), 1,
      'The query API answered 5xx: the Query function log group has the error.');
    alarm('JobsStalled', jobfoldMetric('jobs_stalled'), 1,
      'A Job could not be decided and was parked: GET /v1/jobs shows it with stalled.error (docs/deploy.md, "Stalled Jobs").');
    alarm('EventsDeadLettered', jobfoldMetric('events_dead_lettered_total'), 1,
      'An inbound event failed every writer attempt; it is in the rejected-events queue with the error.');
    alarm('EventsParked', jobfoldMetric('events_parked_total'), 1,
      'The dead-letter triage parked records or events it could neither write, refuse nor put back: read the parked queue (ERROR_CODE, ERROR_MESSAGE), fix, send them back (docs/deploy.md, "Dead letters").');

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    this.dashboard.addWidgets(new TextWidget({ markdown: '# jobfold\nEvents in → log → decisions → commands out; the query API.', width: 24, height: 2 }));
    this.dashboard.addWidgets(
      graph('Events in', [jobfoldMetric('events_ingested_total'), jobfoldMetric('events_rejected_total'),
        jobfoldMetric('events_redriven_total'), jobfoldMetric('events_parked_total'),
        props.ingestStream.metricIncomingRecords({ period: PERIOD, statistic: 'Sum', label: 'ingest stream records in' })]),
      graph('Decisions', [new MathExpression({
        expression: `SEARCH('{${POWERTOOLS_ENVIRONMENT.POWERTOOLS_METRICS_NAMESPACE},reason,service} MetricName="jobs_finished_total"', 'Sum', 300)`,
        label: 'jobs finished by reason', period: PERIOD,
      }), jobfoldMetric('pods_terminated_total'), jobfoldMetric('commands_published_total')]),
      graph('Decision latency (ms)', [jobfoldMetric('decision_latency_ms', 'p50'), jobfoldMetric('decision_latency_ms', 'p99')]),
    );
    this.dashboard.addWidgets(
      graph('Function errors', Object.entries(props.functions).map(([n, f]) => f.metricErrors({ period: PERIOD, label: n }))),
      graph('Function duration p99 (ms)', Object.entries(props.functions).map(([n, f]) => f.metricDuration({ period: PERIOD, statistic: 'p99', label: n }))),
      graph('Stream iterator age (ms)', Object.entries(props.streamConsumers).map(([n, f]) => f.metric('IteratorAge', { period: PERIOD, statistic: 'Maximum', label: n }))),
    );
    this.dashboard.addWidgets(
      graph('Dead letters', Object.entries(props.deadLetterQueues).map(([n, q]) => q.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum', label: n }))),
      graph('API requests', [props.api.metricCount({ period: PERIOD }), props.api.metricClientError({ period: PERIOD }), props.api.metricServerError({ period: PERIOD })]),
      graph('API latency p99 (ms)', [props.api.metricLatency({ period: PERIOD, statistic: 'p99' })]),
    );
  }
}

function graph(title: string, left: IMetric[]): GraphWidget {
  return new GraphWidget({ title, left, width: 8, height: 6 });
}

/** A metric the handlers emit through Powertools (EMF), which adds the `service` dimension. */
function jobfoldMetric(name: string, statistic = 'Sum'): Metric {
  return new Metric({
    namespace: POWERTOOLS_ENVIRONMENT.POWERTOOLS_METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service: POWERTOOLS_ENVIRONMENT.POWERTOOLS_SERVICE_NAME },
    statistic,
    period: PERIOD,
    label: statistic === 'Sum' ? name : `${name} ${statistic}`,
  });
}

/** The stack's own alarm topic: TLS only, encrypted with a key CloudWatch may use to publish. */
function alarmTopic(scope: Construct): Topic {
  const key = new Key(scope, 'AlarmTopicKey', { enableKeyRotation: true, description: 'jobfold alarm topic' });
  key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
  return new Topic(scope, 'AlarmTopic', { displayName: 'jobfold alarms', masterKey: key, enforceSSL: true });
}
