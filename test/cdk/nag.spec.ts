import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../cdk/app.ts';
import { appContext } from './synth-app.ts';

const OIDC = 'arn:aws:iam::123456789012:oidc-provider/oidc.eks.eu-west-1.amazonaws.com/id/ABCDEF';
const newApp = () => buildApp(new App({
  context: appContext({ clusters: [{ id: 'alpha', eksClusterName: 'eks-alpha' }, { id: 'beta', eksClusterName: 'prod-beta', oidcProviderArn: OIDC }] }),
  builtinCloudFormationValidation: false,
}));

/** Every acknowledgement in the tree, as `path: rule id` → reason. */
function acknowledgements(root: IConstruct): Map<string, string> {
  const found = new Map<string, string>();
  for (const construct of root.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        found.set(`${construct.node.path}: ${id.replace(/^annotation::/i, '')}`, reason);
      }
    }
  }
  return found;
}

describe('cdk-nag AwsSolutions', () => {
  const { app, service } = newApp();

  it('finds nothing unacknowledged in either stack, errors or warnings', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });

  it('acknowledges exactly these findings, each with its reason', () => {
    const acks = acknowledgements(app);
    const group = service.node.findAll().find((c) => c.node.path === 'jobfold-service/Timers/Group')!;
    const groupName = (group as unknown as { scheduleGroupName: string }).scheduleGroupName;
    expect([...acks.keys()].sort()).toEqual([
      'jobfold-service/Ingest/Dlq: AwsSolutions-SQS3',
      'jobfold-service/Ingest/Rejected: AwsSolutions-SQS3',
      'jobfold-service/Kube/AuthorizerRole: AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:iam::<AWS::AccountId>:role/*]',
      'jobfold-service/Kube/AuthorizerRole: AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:iam::<AWS::AccountId>:user/*]',
      'jobfold-service/Query/CursorKey: AwsSolutions-SMG4',
      'jobfold-service/Stream/PublishFailures: AwsSolutions-SQS3',
      'jobfold-service/Stream/PublishRole: AwsSolutions-IAM5[Resource::*]',
      'jobfold-service/Timers/Dlq: AwsSolutions-SQS3',
      `jobfold-service/Triage/FunctionRole: AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${groupName}/*]`,
      'jobfold-service/Triage/Parked: AwsSolutions-SQS3',
      'jobfold-service/Writer/Failures: AwsSolutions-SQS3',
      `jobfold-service/Writer/FunctionRole: AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${groupName}/*]`,
    ]);
    for (const reason of acks.values()) expect(reason.length).toBeGreaterThan(80);
  });

  it('grants Resource "*" only for dynamodb:ListStreams, the one action the IAM5 acknowledgement covers', () => {
    const policies = Template.fromStack(service).findResources('AWS::IAM::Policy');
    const star = Object.values(policies).flatMap((p) => p['Properties'].PolicyDocument.Statement as { Action: unknown; Resource: unknown }[])
      .filter((s) => s.Resource === '*');
    expect(star.length).toBeGreaterThan(0);
    for (const statement of star) expect(statement.Action).toBe('dynamodb:ListStreams');
  });

  it('writes the acknowledgements into the template metadata for reviewers', () => {
    const queues = Template.fromStack(service).findResources('AWS::SQS::Queue', {
      Metadata: { cdk_nag: { rules_to_suppress: [{ id: 'AwsSolutions-SQS3' }] } },
    });
    expect(Object.keys(queues).length).toBe(6);
  });

  it('fails the synth of the app on a new unacknowledged finding', () => {
    const fresh = newApp();
    new Queue(fresh.service, 'Unencrypted', { enforceSSL: false });
    expect(() => fresh.app.synth()).toThrow(/AwsSolutions-SQS\d[\s\S]*jobfold-service\/Unencrypted|jobfold-service\/Unencrypted[\s\S]*AwsSolutions-SQS\d/);
  });
});
