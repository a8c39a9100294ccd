import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import type { Construct } from 'constructs';
import { ClusterConnection, outputPrefix } from '../constructs/cluster-connection.ts';
import { IngestStream } from '../constructs/ingest-stream.ts';
import { KubeApi } from '../constructs/kube-api.ts';
import { restrictBusSources } from '../constructs/bus-source-policy.ts';
import { Monitoring } from '../constructs/monitoring.ts';
import { QueryApi } from '../constructs/query-api.ts';
import { StreamConsumers } from '../constructs/stream-consumers.ts';
import { Timers } from '../constructs/timers.ts';
import { Triage } from '../constructs/triage.ts';
import { Writer } from '../constructs/writer.ts';
import type { Settings } from '../settings.ts';

export interface ServiceStackProps extends StackProps {
  /** The event table, from the stateful stack. */
  readonly table: ITable;
  readonly settings: Settings;
}

/**
 * Everything that can be rebuilt from the table: the bus and its rules, the ingest stream, the
 * four functions, the timers, the query API, one connection per cluster, alarms and the
 * dashboard. Read top to bottom it follows an event: in through the bus, into the ingest stream
 * keyed by its Job (or its JobSet), written and decided by the log's writer, published, out to the cluster's queue.
 */
export class ServiceStack extends Stack {
  readonly bus: EventBus;
  readonly clusters: ReadonlyMap<string, ClusterConnection>;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { table, settings } = props;

    // One custom bus for cluster events in, commands out, and rejections. Its resource policy
    // (bus-source-policy.ts) keeps each of jobfold's sources to the one role that owns it.
    this.bus = new EventBus(this, 'Bus', { description: 'jobfold: cluster events in, commands out' });

    const ingest = new IngestStream(this, 'Ingest', { bus: this.bus });
    const timers = new Timers(this, 'Timers', { stream: ingest.stream });
    const writer = new Writer(this, 'Writer', { stream: ingest.stream, table, bus: this.bus, timers });
    // What the ingest path gives up on: written again, refused, put back, or parked with its error.
    const triage = new Triage(this, 'Triage', {
      stream: ingest.stream, table, bus: this.bus, timers, writerFailures: writer.failures, ingestDlq: ingest.deadLetterQueue,
    });
    const consumers = new StreamConsumers(this, 'Stream', { table, bus: this.bus });
    const query = new QueryApi(this, 'Query', { table });
    // kubectl's door to the same history: /k8s/clusters/{cluster}/… on the same API, token-authorized.
    const kube = new KubeApi(this, 'Kube', { table, api: query.api, cursorKey: query.cursorKey });

    const clusters = new Map<string, ClusterConnection>();
    const prefixes = new Map<string, string>();
    for (const cluster of settings.clusters) {
      // `a-b` and `ab` would share output names; refuse rather than overwrite.
      const other = prefixes.get(outputPrefix(cluster.id));
      if (other) throw new Error(`clusters "${other}" and "${cluster.id}" differ only in dashes; rename one`);
      prefixes.set(outputPrefix(cluster.id), cluster.id);
      clusters.set(cluster.id, new ClusterConnection(this, `Cluster-${cluster.id}`, {
        cluster, bus: this.bus, serviceAccount: settings.forwarderServiceAccount,
      }));
    }
    this.clusters = clusters;
    restrictBusSources(this.bus, {
      control: required(consumers.publish.role, 'publish function role'),
      ingest: [required(writer.function.role, 'writer function role'), required(triage.function.role, 'triage function role')],
      clusters: new Map([...clusters].map(([id, c]) => [id, c.role])),
    });

    const monitoring = new Monitoring(this, 'Monitoring', {
      functions: {
        Writer: writer.function, Triage: triage.function, Publish: consumers.publish, Query: query.function,
        Kube: kube.function, KubeAuthorizer: kube.authorizer,
      },
      streamConsumers: { Writer: writer.function, Publish: consumers.publish },
      deadLetterQueues: {
        IngestDlq: ingest.deadLetterQueue,
        RejectedEvents: ingest.rejected,
        WriterFailures: writer.failures,
        Parked: triage.parked,
        PublishFailures: consumers.publishFailures,
        TimersDlq: timers.deadLetterQueue,
        ...Object.fromEntries([...clusters].map(([id, c]) => [`CommandsDlq-${id}`, c.queues.deadLetterQueue])),
      },
      ingestStream: ingest.stream,
      commandQueues: Object.fromEntries([...clusters].map(([id, c]) => [id, c.queues.queue])),
      api: query.api,
      ...(settings.alarmTopicArn ? { alarmTopicArn: settings.alarmTopicArn } : {}),
    });

    new CfnOutput(this, 'AlarmTopicArn', { value: monitoring.topic.topicArn, description: 'Every alarm notifies this topic; subscribe the on-call' });
    new CfnOutput(this, 'BusName', { value: this.bus.eventBusName, description: 'JOBFOLD_EVENT_BUS_NAME for forwarders' });
    new CfnOutput(this, 'BusArn', { value: this.bus.eventBusArn });
    new CfnOutput(this, 'ApiUrl', { value: query.stage.url, description: 'Query API; requests are SigV4-signed' });
    new CfnOutput(this, 'ApiInvokeArn', {
      value: query.api.arnForExecuteApi('GET', '/v1/*', '$default'),
      description: 'Resource for execute-api:Invoke in the policies of the API\'s readers',
    });
    new CfnOutput(this, 'KubeServer', {
      value: `${query.stage.url}k8s/clusters/<cluster>`,
      description: 'kubectl server of each cluster: `jobfold kubeconfig --endpoint <ApiUrl>` writes the contexts (docs/kubectl.md)',
    });
    new CfnOutput(this, 'RejectedEventsQueueUrl', { value: ingest.rejected.queueUrl });
    new CfnOutput(this, 'ParkedQueueUrl', { value: triage.parked.queueUrl, description: 'What the dead-letter triage parked, each with its error (docs/deploy.md, "Dead letters")' });
    new CfnOutput(this, 'IngestStreamArn', { value: ingest.stream.streamArn, description: '`jobfold admin redrive --stream`: parked records go back into this stream (docs/deploy.md, "Runbook")' });
  }
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the ${what} is needed for the bus policy`);
  return value;
}
