import { readFileSync } from 'node:fs';
import { Aws, Duration, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ServiceFunction } from './service-function.ts';

const JOBFOLD_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * The Kubernetes-compatible read API (docs/kubectl.md) on the query API's HTTP API:
 * `ANY /k8s/{proxy+}` → the kube function (functions/kube.ts), which answers reads and refuses
 * writes with a 405 Status. kubectl cannot sign SigV4, so these routes take a bearer token
 * instead (`jobfold token`: a presigned STS GetCallerIdentity bound to this API), checked by a
 * Lambda authorizer that has STS verify it and IAM's policy simulator say whether the caller may
 * invoke `GET /v1/*` — the same principals as the IAM-authorized routes. API Gateway keeps an
 * authorizer's answer 5 minutes per token.
 */
export class KubeApi extends Construct {
  readonly function: ServiceFunction;
  readonly authorizer: ServiceFunction;

  constructor(scope: Construct, id: string, props: { readonly table: ITable; readonly api: HttpApi; readonly cursorKey: ISecret }) {
    super(scope, id);
    this.function = new ServiceFunction(this, 'Function', {
      entry: 'kube',
      description: 'jobfold kube: Jobs, JobSets, pods and events of a cluster as the Kubernetes API serves them, read only',
      // API Gateway gives up after 30 s; a watch answers after at most 25 s (functions/kube/lambda-handler.ts).
      timeout: Duration.seconds(28),
      // Folds whole lists of Jobs and keeps logs read whole for paging (functions/kube/log-cache.ts).
      memorySize: 1024,
      environment: { JOBFOLD_VERSION },
    });
    this.function.bindTable(props.table, 'read');
    this.function.addEnvironment('CURSOR_KEY', props.cursorKey.secretValue.unsafeUnwrap());

    this.authorizer = new ServiceFunction(this, 'Authorizer', {
      entry: 'kube-authorizer',
      description: 'jobfold kube-authorizer: an STS-checked token, and IAM says whether its principal may read the API',
      timeout: Duration.seconds(10),
    });
    // GetRole: the path of an assumed role (SSO roles live under /aws-reserved/…); the
    // simulator, for the caller's role or user. Roles and users are the caller's, known only
    // when a request comes, so only the account can be named.
    this.authorizer.addToRolePolicy(new PolicyStatement({
      actions: ['iam:GetRole', 'iam:SimulatePrincipalPolicy'],
      resources: [`arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/*`, `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:user/*`],
    }));
    Validations.of(this.authorizer.serviceRole).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:iam::<AWS::AccountId>:role/*]',
      reason: 'The caller\'s role is known only at request time; read-only GetRole and SimulatePrincipalPolicy, this account\'s roles only.',
    });
    Validations.of(this.authorizer.serviceRole).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:iam::<AWS::AccountId>:user/*]',
      reason: 'The caller\'s IAM user is known only at request time; read-only SimulatePrincipalPolicy, this account\'s users only.',
    });

    props.api.addRoutes({
      path: '/k8s/{proxy+}',
      methods: [HttpMethod.ANY],
      integration: new HttpLambdaIntegration('Kube', this.function),
      authorizer: new HttpLambdaAuthorizer('KubeToken', this.authorizer, {
        authorizerName: 'jobfold-kube-token',
        responseTypes: [HttpLambdaResponseType.SIMPLE],
        identitySource: ['$request.header.Authorization'],
        resultsCacheTtl: Duration.minutes(5),
      }),
    });
  }
}
