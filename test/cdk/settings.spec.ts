import { describe, expect, it } from 'vitest';
import { readSettings } from '../../cdk/settings.ts';

const from = (context: Record<string, unknown>) => readSettings((key) => context[key]);

describe('readSettings', () => {
  it('has no clusters and the default forwarder service account when nothing is configured', () => {
    expect(from({})).toEqual({ clusters: [], forwarderServiceAccount: { namespace: 'jobfold', name: 'jobfold-forwarder' } });
  });

  it('reads "-c clusters=a:eks-a,b:eks-b" as two clusters with their EKS cluster names', () => {
    expect(from({ clusters: 'alpha:eks-alpha, beta:eks-beta' }).clusters)
      .toEqual([{ id: 'alpha', eksClusterName: 'eks-alpha' }, { id: 'beta', eksClusterName: 'eks-beta' }]);
  });

  it('reads a JSON list given on the command line', () => {
    expect(from({ clusters: '[{"id":"beta","eksClusterName":"prod-beta"}]' }).clusters)
      .toEqual([{ id: 'beta', eksClusterName: 'prod-beta' }]);
  });

  it('reads cdk.json entries with an EKS cluster ARN instead of a name, and an OIDC provider', () => {
    const oidcProviderArn = 'arn:aws:iam::123456789012:oidc-provider/oidc.eks.eu-west-1.amazonaws.com/id/ABC';
    const eksClusterArn = 'arn:aws:eks:eu-west-1:123456789012:cluster/prod-beta';
    expect(from({ clusters: [{ id: 'beta', eksClusterArn, oidcProviderArn }] }).clusters)
      .toEqual([{ id: 'beta', eksClusterArn, oidcProviderArn }]);
  });

  it.each([
    ['an id that is not a DNS label', { clusters: 'Prod_1' }, /DNS label/],
    ['the same id twice', { clusters: 'alpha:a,alpha:a' }, /listed twice/],
    ['a cluster without its EKS cluster name or ARN (its role would trust any cluster)', { clusters: 'alpha' }, /"alpha" needs eksClusterName or eksClusterArn/],
    ['an object entry without them', { clusters: [{ id: 'alpha' }] }, /needs eksClusterName or eksClusterArn/],
    ['a malformed EKS cluster ARN', { clusters: [{ id: 'alpha', eksClusterArn: 'arn:aws:eks:eu-west-1:1:cluster/x' }] }, /EKS cluster ARN/],
    ['a malformed EKS cluster name', { clusters: [{ id: 'alpha', eksClusterName: 'a b' }] }, /EKS cluster name/],
    ['an unknown key', { clusters: [{ id: 'alpha', eksClusterName: 'a', region: 'eu-west-1' }] }, /unknown keys region/],
    ['a malformed OIDC provider ARN', { clusters: [{ id: 'alpha', eksClusterName: 'a', oidcProviderArn: 'oidc.eks.example' }] }, /OIDC provider ARN/],
    ['a service account without a namespace', { forwarderServiceAccount: 'jobfold-forwarder' }, /<namespace>:<name>/],
    ['an alarm topic that is not an ARN', { alarmTopicArn: 'ops-pager' }, /SNS topic ARN/],
  ])('refuses %s, naming the setting', (_case, context, message) => {
    expect(() => from(context)).toThrow(message);
  });

  it('takes the forwarder service account and the alarm topic from context', () => {
    const settings = from({ forwarderServiceAccount: 'kube-system:forwarder', alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:pager' });
    expect(settings.forwarderServiceAccount).toEqual({ namespace: 'kube-system', name: 'forwarder' });
    expect(settings.alarmTopicArn).toBe('arn:aws:sns:eu-west-1:123456789012:pager');
  });
});
