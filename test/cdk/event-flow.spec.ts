import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { RECONCILED_EVENT_TYPES } from '../../cdk/bus-contract.ts';
import { resourcesOf, synthApp } from './synth-app.ts';

describe('the event flow of the service stack', () => {
  let service: ReturnType<typeof synthApp>['service'];
  beforeAll(() => {
    service = synthApp({ clusters: 'alpha:eks-alpha' }).service;
  });
  const resources = () => service.toJSON()['Resources'] as Record<string, { Type: string; Properties: Record<string, any> }>;
  const logicalIdOf = (type: string, fragment: string) => {
    const ids = Object.keys(resources()).filter((id) => resources()[id]!.Type === type && id.includes(fragment));
    if (ids.length !== 1) throw new Error(`expected one ${type} with ${fragment}, got ${ids.join(', ')}`);
    return ids[0]!;
  };
  const mappingOf = (fragment: string) =>
    resourcesOf(service, 'AWS::Lambda::EventSourceMapping').find(([, m]) => m.Properties['FunctionName'].Ref.includes(fragment))![1].Properties;

  it('has one custom bus whose policy only denies (nothing is opened to other accounts)', () => {
    service.resourceCountIs('AWS::Events::EventBus', 1);
    const statements = resourcesOf(service, 'AWS::Events::EventBusPolicy').flatMap(([, p]) => [p.Properties['Statement'] ?? p.Properties['Policy']?.Statement].flat());
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) expect(statement.Effect).toBe('Deny');
  });

  it('routes every jobfold.cluster.* event to the ingest queue, dead-lettering what it cannot deliver', () => {
    service.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: [{ prefix: 'jobfold.cluster.' }] },
      Targets: [Match.objectLike({
        Arn: { 'Fn::GetAtt': [logicalIdOf('AWS::SQS::Queue', 'IngestQueue'), 'Arn'] },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalIdOf('AWS::SQS::Queue', 'IngestDlq'), 'Arn'] } },
        RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86400 },
      })],
    });
  });

  it('gives every rule target a dead-letter queue', () => {
    const rules = resourcesOf(service, 'AWS::Events::Rule');
    expect(rules.length).toBe(4); // inbound, rejections, the sweep, and cluster alpha's commands
    for (const [, rule] of rules) {
      for (const target of rule.Properties['Targets']) expect(target.DeadLetterConfig?.Arn).toBeDefined();
    }
  });

  it('moves an ingest message to the ingest DLQ after five failed receives', () => {
    service.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [logicalIdOf('AWS::SQS::Queue', 'IngestDlq'), 'Arn'] }, maxReceiveCount: 5 },
      VisibilityTimeout: 180,
    });
  });

  it('feeds the ingest function from its queue with partial batch responses', () => {
    expect(mappingOf('Ingest')).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [logicalIdOf('AWS::SQS::Queue', 'IngestQueue'), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: 10,
    });
  });

  it('files Inbound Event Rejected events in the rejected-events queue', () => {
    service.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { 'source': ['jobfold.ingest'], 'detail-type': ['Inbound Event Rejected'] },
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalIdOf('AWS::SQS::Queue', 'Rejected'), 'Arn'] } })],
    });
  });

  it('reconciles only inserted observations, with partial batch responses, bisecting, bounded retries and a failure queue', () => {
    const mapping = mappingOf('Reconcile');
    expect(mapping).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: 21600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [logicalIdOf('AWS::SQS::Queue', 'ReconcileFailures'), 'Arn'] } } },
    });
    expect(JSON.parse(mapping['FilterCriteria'].Filters[0].Pattern)).toEqual({
      eventName: ['INSERT'],
      dynamodb: { NewImage: { t: { S: ['entry'] }, et: { S: RECONCILED_EVENT_TYPES } } },
    });
  });

  it('wakes publish on inserted outbox items, with bounded retries and a failure queue', () => {
    const mapping = mappingOf('Publish');
    expect(mapping).toMatchObject({
      MaximumRetryAttempts: 3,
      MaximumRecordAgeInSeconds: 3600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [logicalIdOf('AWS::SQS::Queue', 'PublishFailures'), 'Arn'] } } },
    });
    expect(JSON.parse(mapping['FilterCriteria'].Filters[0].Pattern)).toEqual({
      eventName: ['INSERT'], dynamodb: { NewImage: { t: { S: ['command'] } } },
    });
  });

  it('sweeps the outbox every minute, dead-lettering a failed sweep', () => {
    service.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({
        Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^StreamPublish'), 'Arn'] },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalIdOf('AWS::SQS::Queue', 'PublishFailures'), 'Arn'] } },
      })],
    });
  });

  it('keeps failed asynchronous invocations of publish and timers in their failure queues', () => {
    service.resourceCountIs('AWS::Lambda::EventInvokeConfig', 2);
    for (const [fn, queue] of [['StreamPublish', 'PublishFailures'], ['TimersFunction', 'TimersDlq']] as const) {
      service.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: Match.stringLikeRegexp(`^${fn}`) },
        MaximumRetryAttempts: 2,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [Match.stringLikeRegexp(`^${queue}|${queue}`), 'Arn'] } } },
      });
    }
  });

  it('encrypts every queue and refuses requests without TLS', () => {
    const queues = resourcesOf(service, 'AWS::SQS::Queue');
    for (const [, queue] of queues) expect(queue.Properties['SqsManagedSseEnabled']).toBe(true);
    const policies = resourcesOf(service, 'AWS::SQS::QueuePolicy');
    const covered = new Set(policies.flatMap(([, p]) => p.Properties['PolicyDocument'].Statement
      .filter((s: any) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false')
      .length > 0 ? p.Properties['Queues'].map((q: { Ref: string }) => q.Ref) : []));
    expect(covered).toEqual(new Set(queues.map(([id]) => id)));
  });

  it('lets ingest put only rejections on the bus, and publish only jobfold.control events', () => {
    for (const [fn, source] of [['IngestFunction', 'jobfold.ingest'], ['StreamPublish', 'jobfold.control']] as const) {
      const roleId = logicalIdOf('AWS::IAM::Role', `${fn}Role`);
      service.hasResourceProperties('AWS::IAM::Policy', {
        Roles: [{ Ref: roleId }],
        PolicyDocument: { Statement: Match.arrayWith([{
          Action: 'events:PutEvents', Effect: 'Allow', Resource: Match.anyValue(),
          Condition: { StringEquals: { 'events:source': source } },
        }]) },
      });
    }
  });
});
