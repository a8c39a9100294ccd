import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { resourcesOf, synthApp } from './synth-app.ts';

describe('the query API', () => {
  let service: ReturnType<typeof synthApp>['service'];
  beforeAll(() => {
    service = synthApp().service;
  });

  it('is one HTTP API', () => {
    service.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    service.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
  });

  it('sends GET /v1/* to the query function with payload format 2.0', () => {
    service.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'GET /v1/{proxy+}' });
    // The what-if routes (POST …/whatif, POST /v1/whatif) take a JSON body.
    service.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'POST /v1/{proxy+}' });
    service.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [Match.stringLikeRegexp('^QueryFunction'), 'Arn'] },
    });
  });

  it('requires IAM (SigV4) authorization on every /v1 route', () => {
    const routes = resourcesOf(service, 'AWS::ApiGatewayV2::Route').filter(([, route]) => String(route.Properties['RouteKey']).includes(' /v1/'));
    expect(routes.length).toBe(2);
    for (const [, route] of routes) expect(route.Properties['AuthorizationType']).toBe('AWS_IAM');
  });

  it('writes an access log line per request, with the signing identity', () => {
    service.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: {
        DestinationArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^QueryAccessLogs'), 'Arn'] },
        Format: Match.stringLikeRegexp('\\$context\\.identity\\.userArn'),
      },
    });
    service.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });

  it('throttles the stage', () => {
    service.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
    });
  });
});
