import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { resourcesOf, synthApp } from './synth-app.ts';

const OIDC = 'arn:aws:iam::123456789012:oidc-provider/oidc.eks.eu-west-1.amazonaws.com/id/ABCDEF';

describe('per-cluster connections', () => {
  const { service } = synthApp({
    clusters: [{ id: 'alpha', eksClusterName: 'eks-alpha' }, { id: 'beta', eksClusterName: 'prod-beta', oidcProviderArn: OIDC }],
  });
  const id = (type: string, prefix: string) => {
    const found = resourcesOf(service, type).map(([i]) => i).filter((i) => i.startsWith(prefix));
    if (found.length !== 1) throw new Error(`expected one ${type} ${prefix}, got ${found.join(', ')}`);
    return found[0]!;
  };
  const arnOf = (logicalId: string) => ({ 'Fn::GetAtt': [logicalId, 'Arn'] });
  const statementsOf = (roleId: string) => resourcesOf(service, 'AWS::IAM::Policy')
    .filter(([, p]) => p.Properties['Roles'].some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties['PolicyDocument'].Statement as Record<string, any>[]);

  it('adds a command queue, its DLQ, a rule and a forwarder role per listed cluster', () => {
    const counts = (clusters: string) => {
      const template = synthApp({ clusters }).service;
      return ['AWS::SQS::Queue', 'AWS::Events::Rule', 'AWS::IAM::Role', 'AWS::CloudWatch::Alarm']
        .map((type) => resourcesOf(template, type).length);
    };
    const [none, one] = [counts(''), counts('alpha:eks-alpha')];
    // queue + DLQ, the command rule, the forwarder role, and the alarms on the cluster's DLQ and command age
    expect(one.map((n, i) => n - none[i]!)).toEqual([2, 1, 1, 2]);
  });

  it("sends a cluster only its own commands, not Job Condition Changed", () => {
    service.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        'source': ['jobfold.control'],
        'detail-type': ['Pod Termination Requested', 'Pod Creation Requested', 'Job Status Update Requested',
          'Pod Finalizer Removal Requested', 'Job Creation Requested', 'Job Deletion Requested', 'Job Suspension Requested', 'Job Resume Requested', 'JobSet Deletion Requested'],
        'detail': { clusterId: ['alpha'] },
      },
      Targets: [Match.objectLike({
        Arn: arnOf(id('AWS::SQS::Queue', 'ClusteralphaCommandsQueue')),
        DeadLetterConfig: { Arn: arnOf(id('AWS::SQS::Queue', 'ClusteralphaCommandsDlq')) },
      })],
    });
  });

  it("moves a cluster's poison command to its own DLQ after five receives", () => {
    service.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: arnOf(id('AWS::SQS::Queue', 'ClusteralphaCommandsDlq')), maxReceiveCount: 5 },
    });
  });

  it("lets a forwarder put events only with its own cluster's source", () => {
    const statements = statementsOf(id('AWS::IAM::Role', 'ClusteralphaForwarderRole'));
    expect(statements.filter((s) => s['Action'] === 'events:PutEvents')).toEqual([expect.objectContaining({
      Resource: arnOf(id('AWS::Events::EventBus', 'Bus')),
      Condition: { StringEquals: { 'events:source': 'jobfold.cluster.alpha' } },
    })]);
  });

  it('lets a forwarder consume only its own queue and send only to its own DLQ', () => {
    const statements = statementsOf(id('AWS::IAM::Role', 'ClusteralphaForwarderRole'))
      .filter((s) => [s['Action']].flat().some((a: string) => a.startsWith('sqs:')));
    expect(statements).toEqual([
      expect.objectContaining({
        Action: ['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:ReceiveMessage'],
        Resource: arnOf(id('AWS::SQS::Queue', 'ClusteralphaCommandsQueue')),
      }),
      expect.objectContaining({ Action: 'sqs:SendMessage', Resource: arnOf(id('AWS::SQS::Queue', 'ClusteralphaCommandsDlq')) }),
    ]);
  });

  it("trusts EKS Pod Identity for the forwarder's service account, in its own EKS cluster only", () => {
    service.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: { Statement: [{
        Action: ['sts:AssumeRole', 'sts:TagSession'], Effect: 'Allow', Principal: { Service: 'pods.eks.amazonaws.com' },
        Condition: {
          StringEquals: {
            'aws:RequestTag/kubernetes-namespace': 'jobfold', 'aws:RequestTag/kubernetes-service-account': 'jobfold-forwarder',
            'aws:RequestTag/eks-cluster-name': 'eks-alpha', 'aws:SourceAccount': { Ref: 'AWS::AccountId' },
          },
          ArnEquals: { 'aws:SourceArn': Match.objectLike({ 'Fn::Join': ['', Match.arrayWith([':cluster/eks-alpha']) ] }) },
        },
      }] },
    });
  });

  it('also trusts IRSA and checks the EKS cluster name when the cluster configures them', () => {
    service.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: { Statement: [
        Match.objectLike({ Condition: { StringEquals: Match.objectLike({ 'aws:RequestTag/eks-cluster-name': 'prod-beta' }) } }),
        {
          Action: 'sts:AssumeRoleWithWebIdentity', Effect: 'Allow', Principal: { Federated: OIDC },
          Condition: { StringEquals: {
            'oidc.eks.eu-west-1.amazonaws.com/id/ABCDEF:sub': 'system:serviceaccount:jobfold:jobfold-forwarder',
            'oidc.eks.eu-west-1.amazonaws.com/id/ABCDEF:aud': 'sts.amazonaws.com',
          } },
        },
      ] },
    });
  });

  it('outputs the role ARN and queue URLs a forwarder is configured with, under readable names', () => {
    service.hasOutput('ClusterAlphaRoleArn', { Value: arnOf(id('AWS::IAM::Role', 'ClusteralphaForwarderRole')) });
    service.hasOutput('ClusterAlphaQueueUrl', { Value: { Ref: id('AWS::SQS::Queue', 'ClusteralphaCommandsQueue') } });
    service.hasOutput('ClusterAlphaDlqUrl', { Value: { Ref: id('AWS::SQS::Queue', 'ClusteralphaCommandsDlq') } });
  });

  it('refuses two cluster ids that differ only in dashes, whose outputs would collide', () => {
    expect(() => synthApp({ clusters: 'eu-1:a,eu1:b' })).toThrow(/differ only in dashes/);
  });
});
