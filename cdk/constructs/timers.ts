import { Aws, Duration, RemovalPolicy, Token, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { deadLetterQueue } from './secure-queue.ts';
import { ServiceFunction } from './service-function.ts';

/**
 * Job wake-ups (activeDeadlineSeconds, pod-recreation backoff) as EventBridge Scheduler
 * one-time schedules, which reconcile creates at run time (functions/aws/scheduler-timers.ts)
 * in one schedule group. The Scheduler assumes a role that may invoke only the timers function,
 * which appends a Tick to the Job's log. An invocation that keeps failing ends in the timers DLQ.
 */
export class Timers extends Construct {
  readonly group: ScheduleGroup;
  readonly schedulerRole: Role;
  readonly deadLetterQueue: Queue;
  readonly function: ServiceFunction;

  constructor(scope: Construct, id: string, props: { table: ITable }) {
    super(scope, id);
    // Deleting the group deletes its schedules: a torn-down service leaves no timer aimed at a
    // function that no longer exists, and a redeploy can create the group again under its name.
    this.group = new ScheduleGroup(this, 'Group', { removalPolicy: RemovalPolicy.DESTROY });
    this.deadLetterQueue = deadLetterQueue(this, 'Dlq', 'timer invocations Lambda or the Scheduler could not complete');
    this.function = new ServiceFunction(this, 'Function', {
      entry: 'timers',
      description: 'jobfold timers: appends a Tick when a Job deadline or backoff is due',
      timeout: Duration.seconds(15),
      memorySize: 256,
      // Scheduler invokes asynchronously; Lambda retries twice, then keeps the event here.
      onFailure: new SqsDestination(this.deadLetterQueue),
    });
    this.function.bindTable(props.table, 'readWrite');

    this.schedulerRole = new Role(this, 'SchedulerRole', {
      // Only schedules of this account may use the role (confused-deputy protection).
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
      }),
      description: 'jobfold: EventBridge Scheduler invokes the timers function',
    });
    // The unqualified ARN, the one schedules target: no version or alias wildcard.
    this.schedulerRole.addToPolicy(new PolicyStatement({
      actions: ['lambda:InvokeFunction'],
      resources: [this.function.functionArn],
    }));
    // For a schedule's own dead-letter config: a wake-up the Scheduler cannot deliver is kept.
    this.schedulerRole.addToPolicy(new PolicyStatement({
      actions: ['sqs:SendMessage'],
      resources: [this.deadLetterQueue.queueArn],
    }));
  }

  /** What reconcile needs to create schedules: the environment, and the two permissions. */
  grantScheduling(fn: ServiceFunction): void {
    fn.addEnvironment('SCHEDULE_GROUP', this.group.scheduleGroupName);
    fn.addEnvironment('TIMERS_FUNCTION_ARN', this.function.functionArn);
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
