import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
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

  it('routes every jobfold.cluster.* event into the ingest stream, keyed by its Job, dead-lettering what it cannot deliver', () => {
    service.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: [{ prefix: 'jobfold.cluster.' }] },
      Targets: [Match.objectLike({
        Arn: { 'Fn::GetAtt': [logicalIdOf('AWS::Kinesis::Stream', 'IngestStream'), 'Arn'] },
        KinesisParameters: { PartitionKeyPath: '$.detail.partitionKey' },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalIdOf('AWS::SQS::Queue', 'IngestDlq'), 'Arn'] } },
        RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86400 },
      })],
    });
  });

  it('keeps the ingest stream on demand, KMS-encrypted (aws/kinesis), for 7 days', () => {
    service.resourceCountIs('AWS::Kinesis::Stream', 1);
    service.hasResourceProperties('AWS::Kinesis::Stream', {
      StreamModeDetails: { StreamMode: 'ON_DEMAND' },
      RetentionPeriodHours: 168,
      StreamEncryption: { EncryptionType: 'KMS', KeyId: 'alias/aws/kinesis' },
    });
  });

  it('lets EventBridge only put records into the ingest stream', () => {
    const rule = resourcesOf(service, 'AWS::Events::Rule').find(([id]) => id.includes('InboundRule'))![1];
    const roleId = rule.Properties['Targets'][0].RoleArn['Fn::GetAtt'][0] as string;
    const statements = resourcesOf(service, 'AWS::IAM::Policy')
      .filter(([, p]) => p.Properties['Roles'].some((r: { Ref: string }) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties['PolicyDocument'].Statement as Record<string, any>[]);
    expect(statements.flatMap((s) => [s['Action']].flat()).sort()).toEqual(['kinesis:ListShards', 'kinesis:PutRecord', 'kinesis:PutRecords']);
    for (const statement of statements) expect(statement['Resource']).toEqual({ 'Fn::GetAtt': [logicalIdOf('AWS::Kinesis::Stream', 'IngestStream'), 'Arn'] });
  });

  it('gives the writer batches of the ingest stream: in order per Job, partial responses, bisecting, bounded retries, a failure queue', () => {
    const mapping = mappingOf('Writer');
    expect(mapping).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [logicalIdOf('AWS::Kinesis::Stream', 'IngestStream'), 'Arn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 1000,
      MaximumBatchingWindowInSeconds: 1,
      ParallelizationFactor: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [logicalIdOf('AWS::SQS::Queue', 'WriterFailures'), 'Arn'] } } },
    });
  });

  it('lets the writer read only the ingest stream, never put into it', () => {
    const roleId = logicalIdOf('AWS::IAM::Role', 'WriterFunctionRole');
    const statements = resourcesOf(service, 'AWS::IAM::Policy')
      .filter(([, p]) => p.Properties['Roles'].some((r: { Ref: string }) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties['PolicyDocument'].Statement as Record<string, any>[]);
    const kinesis = statements.filter((s) => [s['Action']].flat().some((a: string) => a.startsWith('kinesis:')));
    for (const statement of kinesis) {
      expect(statement['Resource']).toEqual({ 'Fn::GetAtt': [logicalIdOf('AWS::Kinesis::Stream', 'IngestStream'), 'Arn'] });
      for (const action of [statement['Action']].flat()) expect(action).not.toMatch(/^kinesis:Put/);
    }
    expect(kinesis.length).toBeGreaterThan(0);
  });

  it('has no ingest queue and no ingest or timers function any more', () => {
    expect(resourcesOf(service, 'AWS::SQS::Queue').map(([id]) => id).filter((id) => /IngestQueue/.test(id))).toEqual([]);
    const descriptions = resourcesOf(service, 'AWS::Lambda::Function').map(([, f]) => String(f.Properties['Description']));
    expect(descriptions.filter((d) => /^jobfold (ingest|timers):/.test(d))).toEqual([]);
  });

  it('files Inbound Event Rejected events in the rejected-events queue', () => {
    service.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { 'source': ['jobfold.ingest'], 'detail-type': ['Inbound Event Rejected'] },
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalIdOf('AWS::SQS::Queue', 'Rejected'), 'Arn'] } })],
    });
  });

  it('has no reconcile function: every log is decided by its writer', () => {
    const reconcile = Object.entries(resources()).filter(([id, r]) => id.includes('Reconcile') && ['AWS::Lambda::Function', 'AWS::SQS::Queue', 'AWS::Lambda::EventSourceMapping'].includes(r.Type));
    expect(reconcile).toEqual([]);
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

  it('keeps failed asynchronous invocations of publish in its failure queue', () => {
    service.resourceCountIs('AWS::Lambda::EventInvokeConfig', 1);
    for (const [fn, queue] of [['StreamPublish', 'PublishFailures']] as const) {
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

  it('lets the writer put only rejections on the bus, and publish only jobfold.control events', () => {
    for (const [fn, source] of [['WriterFunction', 'jobfold.ingest'], ['StreamPublish', 'jobfold.control']] as const) {
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
