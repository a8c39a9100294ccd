import { Aws, RemovalPolicy, Token, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IStream } from 'aws-cdk-lib/aws-kinesis';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { deadLetterQueue } from './secure-queue.ts';
import type { ServiceFunction } from './service-function.ts';

/**
 * Job wake-ups (activeDeadlineSeconds, pod-recreation backoff) as EventBridge Scheduler
 * one-time schedules, which the writer creates at run time (functions/aws/scheduler-timers.ts)
 * in one schedule group. A schedule's target is the ingest stream itself (a templated Kinesis
 * target keyed by the Job's uid): the timer record reaches the Job's writer in order with the
 * Job's events, and the writer appends the Tick and decides. The Scheduler assumes a role that
 * may only put records into that stream; a timer it cannot deliver ends in the timers DLQ.
 */
export class Timers extends Construct {
  readonly group: ScheduleGroup;
  readonly schedulerRole: Role;
  readonly deadLetterQueue: Queue;
  readonly target: IStream;

  constructor(scope: Construct, id: string, props: { stream: IStream }) {
    super(scope, id);
    this.target = props.stream;
    // Deleting the group deletes its schedules: a torn-down service leaves no timer aimed at a
    // stream that no longer exists, and a redeploy can create the group again under its name.
    this.group = new ScheduleGroup(this, 'Group', { removalPolicy: RemovalPolicy.DESTROY });
    this.deadLetterQueue = deadLetterQueue(this, 'Dlq', 'timer records the Scheduler could not put into the ingest stream');

    this.schedulerRole = new Role(this, 'SchedulerRole', {
      // Only schedules of this account may use the role (confused-deputy protection).
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
      description: 'jobfold: EventBridge Scheduler puts timer records into the ingest stream',
    });
    // One record at a time into the one stream (encrypted with aws/kinesis, which needs no grant): nothing else.
    this.schedulerRole.addToPolicy(new PolicyStatement({
      actions: ['kinesis:PutRecord'],
      resources: [props.stream.streamArn],
    }));
    // For a schedule's own dead-letter config: a wake-up the Scheduler cannot deliver is kept.
    this.schedulerRole.addToPolicy(new PolicyStatement({
      actions: ['sqs:SendMessage'],
      resources: [this.deadLetterQueue.queueArn],
    }));
  }

  /** What the writer needs to create schedules: the environment, and the two permissions. */
  grantScheduling(fn: ServiceFunction): void {
    fn.addEnvironment('SCHEDULE_GROUP', this.group.scheduleGroupName);
    fn.addEnvironment('TIMERS_TARGET_ARN', this.target.streamArn);
    fn.addEnvironment('SCHEDULER_ROLE_ARN', this.schedulerRole.roleArn);
    fn.addEnvironment('TIMERS_DLQ_ARN', this.deadLetterQueue.queueArn);
    const group = this.group.scheduleGroupName;
    if (Token.isUnresolved(group)) throw new Error('the schedule group name must be known at synth time');
    fn.addToRolePolicy(new PolicyStatement({
      actions: ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule'],
      resources: [`arn:${Aws.PARTITION}:scheduler:${Aws.REGION}:${Aws.ACCOUNT_ID}:schedule/${group}/*`],
    }));
    Validations.of(fn.serviceRole).acknowledge({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${group}/*]`,
      reason: 'Schedules are named at run time, one per Job (a hash of its stream key), so no fixed ARN exists; '
        + 'the wildcard is confined to jobfold\'s own schedule group and to CreateSchedule/UpdateSchedule.',
    });
    fn.addToRolePolicy(new PolicyStatement({
      actions: ['iam:PassRole'],
      resources: [this.schedulerRole.roleArn],
      conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
    }));
  }
}
