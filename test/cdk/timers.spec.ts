import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { resourcesOf, synthApp } from './synth-app.ts';

describe('the timers', () => {
  let service: ReturnType<typeof synthApp>['service'];
  beforeAll(() => {
    service = synthApp().service;
  });
  const id = (type: string, prefix: string) => resourcesOf(service, type).map(([i]) => i).find((i) => i.startsWith(prefix))!;
  const statementsOf = (rolePrefix: string) => resourcesOf(service, 'AWS::IAM::Policy')
    .filter(([, p]) => p.Properties['Roles'].some((r: { Ref: string }) => r.Ref.startsWith(rolePrefix)))
    .flatMap(([, p]) => p.Properties['PolicyDocument'].Statement as Record<string, any>[]);

  it('creates one schedule group for the one-time schedules, deleted with the stack', () => {
    service.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    service.hasResource('AWS::Scheduler::ScheduleGroup', { DeletionPolicy: 'Delete' });
  });

  it('lets only EventBridge Scheduler of this account assume the scheduler role', () => {
    service.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: { Statement: [{
        Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      }] },
    });
  });

  it('lets the scheduler role put one record at a time into the ingest stream, and nothing else', () => {
    const statements = statementsOf('TimersSchedulerRole');
    expect(statements).toEqual([
      expect.objectContaining({ Action: 'kinesis:PutRecord', Resource: { 'Fn::GetAtt': [id('AWS::Kinesis::Stream', 'IngestStream'), 'Arn'] } }),
      expect.objectContaining({ Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': [id('AWS::SQS::Queue', 'TimersDlq'), 'Arn'] } }),
    ]);
  });

  it('lets the writer create and update schedules in its group only, and pass only the scheduler role', () => {
    const statements = statementsOf('WriterFunctionRole');
    const group = resourcesOf(service, 'AWS::Scheduler::ScheduleGroup')[0]![1].Properties['Name'] as string;
    expect(statements).toEqual(expect.arrayContaining([
      expect.objectContaining({
        Action: ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule'],
        Resource: { 'Fn::Join': ['', expect.arrayContaining([`:schedule/${group}/*`])] },
      }),
      expect.objectContaining({
        Action: 'iam:PassRole',
        Resource: { 'Fn::GetAtt': [id('AWS::IAM::Role', 'TimersSchedulerRole'), 'Arn'] },
        Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    ]));
    expect(JSON.stringify(statementsOf('StreamPublishRole'))).not.toContain('scheduler:');
  });

  it('tells the writer the group, the target stream and the role for its schedules', () => {
    service.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^jobfold writer'),
      Environment: { Variables: Match.objectLike({
        SCHEDULE_GROUP: Match.anyValue(),
        TIMERS_TARGET_ARN: { 'Fn::GetAtt': [id('AWS::Kinesis::Stream', 'IngestStream'), 'Arn'] },
        SCHEDULER_ROLE_ARN: { 'Fn::GetAtt': [id('AWS::IAM::Role', 'TimersSchedulerRole'), 'Arn'] },
        TIMERS_DLQ_ARN: { 'Fn::GetAtt': [id('AWS::SQS::Queue', 'TimersDlq'), 'Arn'] },
      }) },
    });
  });
});
