import { beforeAll, describe, expect, it } from 'vitest';
import { TRIAGE_MAX_RECEIVES } from '../../cdk/constructs/triage.ts';
import { MAX_RECEIVE_COUNT, TRIAGED_VISIBILITY } from '../../cdk/constructs/secure-queue.ts';
import { readEnv } from '../../functions/commons/config.ts';
import { resourcesOf, synthApp, type TemplateResource } from './synth-app.ts';

// Issue 14: what the ingest path gives up on is retried or parked with its error. The dead-letter
// triage's wiring on the synthesized stack: which queues it consumes, what its role may do (and
// nothing more), where it parks, and the alarm that says it did.

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:jobfold-pager';

describe('the dead-letter triage in the service stack', () => {
  let service: ReturnType<typeof synthApp>['service'];
  beforeAll(() => {
    service = synthApp({ clusters: 'alpha:eks-alpha', alarmTopicArn: TOPIC }).service;
  });
  const idOf = (type: string, prefix: string) => {
    const found = resourcesOf(service, type).map(([i]) => i).filter((i) => i.startsWith(prefix));
    if (found.length !== 1) throw new Error(`expected one ${type} ${prefix}, got ${found.join(', ')}`);
    return found[0]!;
  };
  const resource = (type: string, prefix: string) => service.toJSON()['Resources'][idOf(type, prefix)] as TemplateResource;
  const arn = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
  const triageStatements = () => resourcesOf(service, 'AWS::IAM::Policy')
    .filter(([, p]) => p.Properties['Roles'].some((r: { Ref: string }) => r.Ref === idOf('AWS::IAM::Role', 'TriageFunctionRole')))
    .flatMap(([, p]) => p.Properties['PolicyDocument']['Statement'] as { Action: string | string[]; Resource: unknown; Condition?: unknown }[]);
  /** Each (action, resource) pair the role's statements grant whose action starts with `prefix`. */
  const actionsOn = (prefix: string) => triageStatements().flatMap((s) => [s.Action].flat().filter((a) => a.startsWith(prefix))
    .flatMap((a) => [s.Resource].flat().map((r) => ({ a, r }))));

  it('consumes the writer-failures queue one failed batch at a time, and the ingest DLQ, reporting item failures', () => {
    const mappings = resourcesOf(service, 'AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties)
      .filter((m) => m['FunctionName'].Ref === idOf('AWS::Lambda::Function', 'TriageFunction'));
    expect(mappings).toEqual(expect.arrayContaining([
      expect.objectContaining({ EventSourceArn: arn(idOf('AWS::SQS::Queue', 'WriterFailures')), BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'] }),
      expect.objectContaining({ EventSourceArn: arn(idOf('AWS::SQS::Queue', 'IngestDlq')), BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] }),
    ]));
    expect(mappings).toHaveLength(2);
  });

  it('is what the writer\'s on-failure destination feeds', () => {
    const writerMapping = resourcesOf(service, 'AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties)
      .find((m) => m['FunctionName'].Ref === idOf('AWS::Lambda::Function', 'WriterFunction'))!;
    expect(writerMapping['DestinationConfig']).toEqual({ OnFailure: { Destination: arn(idOf('AWS::SQS::Queue', 'WriterFailures')) } });
  });

  it('keeps a failed message hidden 15 minutes between receives, with no redrive: the triage parks on its last receive', () => {
    for (const queue of ['WriterFailures', 'IngestDlq']) {
      const properties = resource('AWS::SQS::Queue', queue).Properties;
      expect(properties['VisibilityTimeout']).toBe(TRIAGED_VISIBILITY.toSeconds());
      expect(properties['RedrivePolicy']).toBeUndefined();
    }
    expect(TRIAGED_VISIBILITY.toSeconds()).toBeGreaterThanOrEqual(6 * resource('AWS::Lambda::Function', 'TriageFunction').Properties['Timeout']);
  });

  it('parks on the receive the queues\' convention names, the same the function defaults to', () => {
    const variables = resource('AWS::Lambda::Function', 'TriageFunction').Properties['Environment']['Variables'];
    expect(variables).toMatchObject({
      TRIAGE_MAX_RECEIVES: String(MAX_RECEIVE_COUNT),
      STREAM_ARN: arn(idOf('AWS::Kinesis::Stream', 'IngestStream')),
      PARKED_QUEUE_URL: { Ref: idOf('AWS::SQS::Queue', 'TriageParked') },
    });
    expect(TRIAGE_MAX_RECEIVES).toBe(readEnv({}).TRIAGE_MAX_RECEIVES);
  });

  it('may read back and put records on the ingest stream only, and nothing else of Kinesis', () => {
    const byAction = (x: { a: string }, y: { a: string }) => x.a.localeCompare(y.a);
    expect(actionsOn('kinesis:').sort(byAction)).toEqual(['kinesis:GetRecords', 'kinesis:GetShardIterator', 'kinesis:PutRecord']
      .map((a) => ({ a, r: arn(idOf('AWS::Kinesis::Stream', 'IngestStream')) })));
  });

  it('may send only to the parked queue and (requeue) the two triaged queues, and consume only those two', () => {
    const sqs = actionsOn('sqs:');
    const sentTo = sqs.filter((s) => s.a === 'sqs:SendMessage').map((s) => JSON.stringify(s.r));
    expect(new Set(sentTo)).toEqual(new Set(['TriageParked', 'WriterFailures', 'IngestDlq'].map((q) => JSON.stringify(arn(idOf('AWS::SQS::Queue', q))))));
    expect(sentTo).toHaveLength(3);
    const consumed = sqs.filter((s) => s.a === 'sqs:ReceiveMessage' || s.a === 'sqs:DeleteMessage' || s.a === 'sqs:ChangeMessageVisibility');
    expect(new Set(consumed.map((s) => JSON.stringify(s.r)))).toEqual(new Set(['WriterFailures', 'IngestDlq'].map((q) => JSON.stringify(arn(idOf('AWS::SQS::Queue', q))))));
    expect(sqs.every((s) => JSON.stringify(s.r) !== JSON.stringify(arn(idOf('AWS::SQS::Queue', 'IngestRejected'))))).toBe(true);
  });

  it('may put only rejections on the bus, as the writer does', () => {
    const puts = triageStatements().filter((s) => [s.Action].flat().includes('events:PutEvents'));
    expect(puts).toEqual([expect.objectContaining({ Condition: { StringEquals: { 'events:source': 'jobfold.ingest' } } })]);
  });

  it('alarms the topic when it parks anything, and on the parked queue\'s depth', () => {
    const alarms = resourcesOf(service, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    expect(alarms).toEqual(expect.arrayContaining([
      expect.objectContaining({
        Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', AlarmActions: [TOPIC],
        Metrics: [expect.objectContaining({ MetricStat: expect.objectContaining({ Metric: expect.objectContaining({ MetricName: 'events_parked_total', Namespace: 'jobfold' }) }) })],
      }),
      expect.objectContaining({
        MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 1, AlarmActions: [TOPIC],
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [idOf('AWS::SQS::Queue', 'TriageParked'), 'QueueName'] } }],
      }),
    ]));
  });
});
