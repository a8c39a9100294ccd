import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { resourcesOf, synthApp } from './synth-app.ts';

// The kube API's wiring (cdk/constructs/kube-api.ts): kubectl's routes on the same HTTP API,
// behind the token authorizer, to a function that reads the table and nothing else.

describe('the kube API', () => {
  let service: ReturnType<typeof synthApp>['service'];
  beforeAll(() => {
    service = synthApp().service;
  });

  it('sends every method under /k8s/ to the kube function, behind the token authorizer', () => {
    const [[, route] = ['', undefined]] = resourcesOf(service, 'AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties['RouteKey'] === 'ANY /k8s/{proxy+}');
    expect(route?.Properties['AuthorizationType']).toBe('CUSTOM');
    service.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [Match.stringLikeRegexp('^KubeFunction'), 'Arn'] },
    });
    service.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'REQUEST',
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      IdentitySource: ['$request.header.Authorization'],
      AuthorizerResultTtlInSeconds: 300,
      AuthorizerUri: Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith([Match.objectLike({ 'Fn::GetAtt': [Match.stringLikeRegexp('^KubeAuthorizer'), 'Arn'] })])]) }),
    });
  });

  it('lets the kube function read the table only, and answer within API Gateway\'s 30 s', () => {
    const [[, fn] = ['', undefined]] = resourcesOf(service, 'AWS::Lambda::Function').filter(([id]) => /^KubeFunction[0-9A-F]{8}$/.test(id));
    expect(fn?.Properties['Timeout']).toBe(28);
    expect(fn?.Properties['Environment']['Variables']).toMatchObject({ TABLE_NAME: expect.anything(), CURSOR_KEY: expect.anything(), JOBFOLD_VERSION: expect.any(String) });
    const policies = resourcesOf(service, 'AWS::IAM::Policy').filter(([id]) => id.startsWith('KubeFunctionRole'));
    const actions = policies.flatMap(([, p]) => (p.Properties['PolicyDocument']['Statement'] as { Action: string | string[] }[]).flatMap((s) => s.Action));
    expect(actions.filter((a) => a.startsWith('dynamodb:')).sort()).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query']);
  });

  it('lets the authorizer ask IAM about this account\'s roles and users, and nothing more', () => {
    const policies = resourcesOf(service, 'AWS::IAM::Policy').filter(([id]) => id.startsWith('KubeAuthorizerRole'));
    const statements = policies.flatMap(([, p]) => p.Properties['PolicyDocument']['Statement'] as { Action: string | string[]; Resource: unknown }[]);
    const iam = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('iam:')));
    expect(iam.flatMap((s) => [s.Action].flat()).sort()).toEqual(['iam:GetRole', 'iam:SimulatePrincipalPolicy']);
    expect(JSON.stringify(iam.map((s) => s.Resource))).toMatch(/:iam::.*:role\/\*.*:iam::.*:user\/\*/);
  });
});
