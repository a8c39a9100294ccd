import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { resourcesOf, synthApp } from './synth-app.ts';

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:jobfold-pager';

describe('alarms and the dashboard', () => {
  let service: ReturnType<typeof synthApp>['service'];
  beforeAll(() => {
    service = synthApp({ clusters: 'alpha:eks-alpha', alarmTopicArn: TOPIC }).service;
  });
  const alarms = () => resourcesOf(service, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);

  it('alarms on the depth of every dead-letter and failure queue', () => {
    const watched = alarms().filter((a) => a['MetricName'] === 'ApproximateNumberOfMessagesVisible')
      .map((a) => a['Dimensions'][0].Value['Fn::GetAtt'][0] as string);
    const deadEnds = resourcesOf(service, 'AWS::SQS::Queue').map(([id]) => id)
      .filter((id) => /Dlq|Failures|Rejected|Parked/.test(id));
    expect(deadEnds).toHaveLength(7); // ingest DLQ, rejected, writer/publish failures, triage's parked, timers DLQ, alpha's DLQ
    expect(new Set(watched)).toEqual(new Set(deadEnds));
  });

  it('alarms on errors of each of the six functions', () => {
    const errors = alarms().filter((a) => a['MetricName'] === 'Errors' && a['Namespace'] === 'AWS/Lambda');
    expect(errors).toHaveLength(6);
  });

  it('alarms when the writer (ingest stream) or publish (table stream) falls 5 minutes behind', () => {
    const iterator = alarms().filter((a) => a['MetricName'] === 'IteratorAge');
    expect(iterator.map((a) => a['Dimensions'][0].Value.Ref).sort()).toEqual(
      ['StreamPublish', 'WriterFunction'].map((prefix) => expect.stringMatching(new RegExp(`^${prefix}`))));
    for (const alarm of iterator) expect(alarm).toMatchObject({ Statistic: 'Maximum', Threshold: 300000 });
  });

  it('notifies the configured topic from every alarm', () => {
    for (const alarm of alarms()) expect(alarm['AlarmActions']).toEqual([TOPIC]);
  });

  it('builds one dashboard', () => {
    service.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    service.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardBody: Match.anyValue() });
  });
});
