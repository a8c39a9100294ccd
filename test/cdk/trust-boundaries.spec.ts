import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { resourcesOf, synthApp } from './synth-app.ts';

// Issue 14 §7 and "Commands only from jobfold" / "Alarms that reach someone": each trust
// boundary of the deployed stack, asserted on the synthesized template.

const BETA_ARN = 'arn:aws:eks:eu-west-1:123456789012:cluster/prod-beta';

describe('trust boundaries of the service stack', () => {
  let service: ReturnType<typeof synthApp>['service'];
  beforeAll(() => {
    service = synthApp({ clusters: [{ id: 'alpha', eksClusterName: 'eks-alpha' }, { id: 'beta', eksClusterArn: BETA_ARN }] }).service;
  });
  const logicalId = (type: string, prefix: string) => {
    const found = resourcesOf(service, type).map(([i]) => i).filter((i) => i.startsWith(prefix));
    if (found.length !== 1) throw new Error(`expected one ${type} ${prefix}, got ${found.join(', ')}`);
    return found[0]!;
  };
  const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
  const busStatements = () => resourcesOf(service, 'AWS::Events::EventBusPolicy').map(([, p]) => p.Properties['Statement']);
  const denyOf = (sourceCondition: Record<string, unknown>) => busStatements().filter(
    (s) => JSON.stringify(s.Condition.StringEquals ?? s.Condition.StringLike) === JSON.stringify(sourceCondition));

  describe('the bus policy: each jobfold source only from the role that owns it', () => {
    it('denies jobfold.control to every principal but the publish function role', () => {
      expect(denyOf({ 'events:source': 'jobfold.control' })).toEqual([expect.objectContaining({
        Effect: 'Deny', Principal: { AWS: '*' }, Action: 'events:PutEvents',
        Condition: expect.objectContaining({ ArnNotEquals: { 'aws:PrincipalArn': [arnOf(logicalId('AWS::IAM::Role', 'StreamPublishRole'))] } }),
      })]);
    });

    it('denies jobfold.ingest (rejections) to every principal but the writer and triage function roles', () => {
      expect(denyOf({ 'events:source': 'jobfold.ingest' })).toEqual([expect.objectContaining({
        Effect: 'Deny', Principal: { AWS: '*' },
        Condition: expect.objectContaining({ ArnNotEquals: { 'aws:PrincipalArn': ['WriterFunctionRole', 'TriageFunctionRole'].map((r) => arnOf(logicalId('AWS::IAM::Role', r))) } }),
      })]);
    });

    it.each(['alpha', 'beta'])('denies jobfold.cluster.%s to every principal but that cluster’s role', (cluster) => {
      expect(denyOf({ 'events:source': `jobfold.cluster.${cluster}` })).toEqual([expect.objectContaining({
        Effect: 'Deny', Principal: { AWS: '*' },
        Condition: expect.objectContaining({ ArnNotEquals: { 'aws:PrincipalArn': [arnOf(logicalId('AWS::IAM::Role', `Cluster${cluster}ForwarderRole`))] } }),
      })]);
    });

    it('denies a jobfold.cluster.* source of no configured cluster to everyone but the cluster roles', () => {
      const [statement] = denyOf({ 'events:source': 'jobfold.cluster.*' });
      expect(statement?.Effect).toBe('Deny');
      expect(statement?.Condition.ArnNotEquals['aws:PrincipalArn']).toEqual(['alpha', 'beta']
        .map((c) => arnOf(logicalId('AWS::IAM::Role', `Cluster${c}ForwarderRole`))));
    });

    it('has no statement that allows anything', () => {
      for (const statement of busStatements()) expect(statement.Effect).toBe('Deny');
    });
  });

  describe('the Pod Identity trust of each cluster role: bound to that EKS cluster', () => {
    it('binds alpha (configured by name) to its aws:SourceArn and eks-cluster-name tag', () => {
      const role = resourcesOf(service, 'AWS::IAM::Role').find(([id]) => id.startsWith('ClusteralphaForwarderRole'))![1];
      const [podIdentity] = role.Properties['AssumeRolePolicyDocument'].Statement;
      expect(podIdentity.Condition.StringEquals['aws:RequestTag/eks-cluster-name']).toBe('eks-alpha');
      expect(JSON.stringify(podIdentity.Condition.ArnEquals['aws:SourceArn'])).toContain(':cluster/eks-alpha');
    });

    it('binds beta (configured by ARN) to exactly that aws:SourceArn', () => {
      service.hasResourceProperties('AWS::IAM::Role', {
        AssumeRolePolicyDocument: { Statement: [Match.objectLike({
          Principal: { Service: 'pods.eks.amazonaws.com' },
          Condition: Match.objectLike({ ArnEquals: { 'aws:SourceArn': BETA_ARN } }),
        })] },
      });
    });

    it('refuses to synthesize a cluster without its EKS cluster name or ARN', () => {
      expect(() => synthApp({ clusters: [{ id: 'gamma' }] })).toThrow(/"gamma" needs eksClusterName or eksClusterArn/);
    });
  });

  describe('alarms that reach someone', () => {
    const alarms = () => resourcesOf(service, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);

    it('creates an encrypted, TLS-only topic when none is given, and every alarm notifies it', () => {
      const topics = resourcesOf(service, 'AWS::SNS::Topic');
      expect(topics).toHaveLength(1);
      const [topicId, topic] = topics[0]!;
      expect(topic.Properties['KmsMasterKeyId']).toBeDefined();
      service.hasResourceProperties('AWS::SNS::TopicPolicy', {
        PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
      });
      for (const alarm of alarms()) expect(alarm['AlarmActions']).toEqual([{ Ref: topicId }]);
      service.hasOutput('AlarmTopicArn', { Value: { Ref: topicId } });
    });

    it.each(['alpha', 'beta'])('alarms on the age of the oldest command in %s’s queue', (cluster) => {
      const queue = logicalId('AWS::SQS::Queue', `Cluster${cluster}CommandsQueue`);
      const age = alarms().filter((a) => a['MetricName'] === 'ApproximateAgeOfOldestMessage'
        && JSON.stringify(a['Dimensions']).includes(queue));
      expect(age).toEqual([expect.objectContaining({ Threshold: 600, Statistic: 'Maximum' })]);
    });

    it('alarms on API 5xx and on stalled Jobs', () => {
      expect(alarms().filter((a) => a['MetricName'] === '5xx' || a['MetricName'] === '5XXError')).toHaveLength(1);
      // A metric with a label is written as a Metrics query of one MetricStat.
      const stalled = alarms().filter((a) => JSON.stringify(a['Metrics'] ?? []).includes('"MetricName":"jobs_stalled"'));
      expect(stalled).toEqual([expect.objectContaining({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' })]);
    });
  });
});
