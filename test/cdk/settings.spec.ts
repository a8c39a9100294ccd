import { describe, expect, it } from 'vitest';
import { readSettings } from '../../cdk/settings.ts';

const from = (context: Record<string, unknown>) => readSettings((key) => context[key]);

describe('readSettings', () => {
  it('has no clusters and the default forwarder service account when nothing is configured', () => {
    expect(from({})).toEqual({ clusters: [], forwarderServiceAccount: { namespace: 'jobfold', name: 'jobfold-forwarder' } });
  });

  it('reads "-c clusters=a,b" as two clusters', () => {
    expect(from({ clusters: 'alpha, beta' }).clusters).toEqual([{ id: 'alpha' }, { id: 'beta' }]);
  });

  it('reads a JSON list given on the command line', () => {
    expect(from({ clusters: '["alpha",{"id":"beta","eksClusterName":"prod-beta"}]' }).clusters)
      .toEqual([{ id: 'alpha' }, { id: 'beta', eksClusterName: 'prod-beta' }]);
  });

  it('reads cdk.json entries that are ids or objects with an OIDC provider', () => {
    const oidcProviderArn = 'arn:aws:iam::123456789012:oidc-provider/oidc.eks.eu-west-1.amazonaws.com/id/ABC';
    expect(from({ clusters: ['alpha', { id: 'beta', oidcProviderArn }] }).clusters)
      .toEqual([{ id: 'alpha' }, { id: 'beta', oidcProviderArn }]);
  });

  it.each([
    ['an id that is not a DNS label', { clusters: 'Prod_1' }, /DNS label/],
    ['the same id twice', { clusters: 'alpha,alpha' }, /listed twice/],
    ['an unknown key', { clusters: [{ id: 'alpha', region: 'eu-west-1' }] }, /unknown keys region/],
    ['a malformed OIDC provider ARN', { clusters: [{ id: 'alpha', oidcProviderArn: 'oidc.eks.example' }] }, /OIDC provider ARN/],
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
