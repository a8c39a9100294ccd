import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { INDEX } from '../../functions/adapters/table-layout.ts';
import { resourcesOf, synthApp } from './synth-app.ts';

const HANDLERS = ['writer', 'triage', 'publish', 'query', 'kube', 'kube-authorizer'];
/** The one function that does not read the table: it asks STS and IAM about a token. */
const TABLELESS = ['kube-authorizer'];
const WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem'];

describe('the service functions', () => {
  let service: ReturnType<typeof synthApp>['service'];
  beforeAll(() => {
    service = synthApp().service;
  });
  const functions = () => resourcesOf(service, 'AWS::Lambda::Function');
  const byHandler = (name: string) => {
    const found = functions().find(([, f]) => String(f.Properties['Description']).startsWith(`jobfold ${name}:`));
    if (!found) throw new Error(`no ${name} function`);
    return found;
  };
  const policyOf = (name: string) => {
    const [, fn] = byHandler(name);
    const roleId = fn.Properties['Role']['Fn::GetAtt'][0] as string;
    const policies = resourcesOf(service, 'AWS::IAM::Policy')
      .filter(([, p]) => p.Properties['Roles'].some((r: { Ref: string }) => r.Ref === roleId));
    return policies.flatMap(([, p]) => p.Properties['PolicyDocument']['Statement'] as { Action: string | string[]; Resource: unknown }[]);
  };

  it('deploys one function per handler', () => {
    expect(functions()).toHaveLength(HANDLERS.length);
    for (const name of HANDLERS) expect(byHandler(name)).toBeDefined();
  });

  it('runs every function on nodejs24.x on ARM64, from the bundled ESM handler', () => {
    service.allResourcesProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler',
    });
  });

  it('sets the Powertools environment on every function, and the table on each that reads it', () => {
    service.allResourcesProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({
        POWERTOOLS_SERVICE_NAME: 'jobfold', POWERTOOLS_METRICS_NAMESPACE: 'jobfold', POWERTOOLS_LOG_LEVEL: 'INFO',
      }) },
    });
    for (const name of HANDLERS) {
      const [, fn] = byHandler(name);
      expect(Object.hasOwn(fn.Properties['Environment']['Variables'], 'TABLE_NAME'), name).toBe(!TABLELESS.includes(name));
    }
  });

  it('gives every function its own log group with a 30-day retention', () => {
    for (const [, fn] of functions()) {
      const logGroupId = fn.Properties['LoggingConfig']['LogGroup']['Ref'] as string;
      expect(service.toJSON()['Resources'][logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } });
    }
  });

  it('attaches no AWS managed policy to any role', () => {
    for (const [, role] of resourcesOf(service, 'AWS::IAM::Role')) expect(role.Properties['ManagedPolicyArns']).toBeUndefined();
  });

  it('gives the functions the configuration their handlers read', () => {
    const variables = (name: string) => byHandler(name)[1].Properties['Environment']['Variables'] as Record<string, unknown>;
    expect(Object.keys(variables('writer'))).toEqual(expect.arrayContaining(
      ['BUS_NAME', 'SNAPSHOT_EVERY', 'FEATURE_GATES', 'SCHEDULE_GROUP', 'TIMERS_TARGET_ARN', 'SCHEDULER_ROLE_ARN', 'TIMERS_DLQ_ARN']));
    expect(Object.keys(variables('publish'))).toContain('BUS_NAME');
  });

  it('lets the query function read the table but not write it', () => {
    const actions = policyOf('query').flatMap((s) => [s.Action].flat());
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    for (const write of WRITES) expect(actions).not.toContain(write);
  });

  it.each(['writer', 'triage', 'publish'])('lets %s append to the log with conditional writes', (name) => {
    const actions = policyOf(name).flatMap((s) => [s.Action].flat());
    expect(actions).toEqual(expect.arrayContaining(WRITES));
  });

  it('names each index ARN instead of granting index/*', () => {
    const resources = JSON.stringify(policyOf('query'));
    for (const index of Object.values(INDEX)) expect(resources).toContain(`/index/${index}`);
    expect(resources).not.toContain('/index/*');
  });
});
