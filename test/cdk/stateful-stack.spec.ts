import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TABLE_DEFINITION } from '../../functions/adapters/table-layout.ts';
import { resourcesOf, synthApp } from './synth-app.ts';

describe('the stateful stack', () => {
  let stack: ReturnType<typeof synthApp>['stateful'];
  beforeAll(() => {
    stack = synthApp().stateful;
  });

  it('holds exactly one table', () => {
    stack.resourceCountIs('AWS::DynamoDB::Table', 1);
  });

  it('defines the key schema, attributes and indexes from functions/adapters/table-layout.ts', () => {
    const table = resourcesOf(stack, 'AWS::DynamoDB::Table')[0]![1];
    expect(table.Properties['KeySchema']).toEqual(TABLE_DEFINITION.KeySchema);
    expect(new Set(table.Properties['AttributeDefinitions'].map((a: { AttributeName: string }) => a.AttributeName)))
      .toEqual(new Set(TABLE_DEFINITION.AttributeDefinitions.map((a) => a.AttributeName)));
    expect(table.Properties['GlobalSecondaryIndexes']).toEqual(TABLE_DEFINITION.GlobalSecondaryIndexes);
    expect(table.Properties['BillingMode']).toBe(TABLE_DEFINITION.BillingMode);
  });

  it('streams new images for reconcile and publish', () => {
    stack.hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
  });

  it('keeps 35 days of point-in-time recovery', () => {
    stack.hasResourceProperties('AWS::DynamoDB::Table', {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true, RecoveryPeriodInDays: 35 },
    });
  });

  it('refuses deletion through the API', () => {
    stack.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
  });

  it('encrypts with the AWS managed KMS key', () => {
    stack.hasResourceProperties('AWS::DynamoDB::Table', { SSESpecification: { SSEEnabled: true } });
  });

  it('retains the table when the stack is deleted or the table replaced', () => {
    stack.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('publishes the stream ARN as an output for the service stack to read', () => {
    stack.hasOutput('*', { Value: { 'Fn::GetAtt': [Match.anyValue(), 'StreamArn'] } });
  });
});
