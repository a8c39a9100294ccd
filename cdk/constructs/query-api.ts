import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { LOG_RETENTION, ServiceFunction } from './service-function.ts';

/** Steady and burst request rates of the stage; a runaway dashboard cannot eat the account's API quota. */
export const API_THROTTLE = { rateLimit: 100, burstLimit: 200 } as const;

/** One JSON line per request, in HTTP API context variables; `caller`/`userArn` say who signed it. */
const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  caller: '$context.identity.caller',
  userArn: '$context.identity.userArn',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationError: '$context.integrationErrorMessage',
};

/**
 * The read API (HTTP API, payload v2): every route under /v1 goes to the one query function,
 * which routes itself. Callers sign requests with SigV4 (IAM authorization): grant
 * `execute-api:Invoke` on the API to the roles of the people and tools that read Job history.
 * Every request is written to the access log.
 */
export class QueryApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly function: ServiceFunction;
  readonly accessLogs: LogGroup;
  /** Signs list cursors; the kube API signs its continue tokens with it too. */
  readonly cursorKey: Secret;

  constructor(scope: Construct, id: string, props: { table: ITable }) {
    super(scope, id);
    this.function = new ServiceFunction(this, 'Function', {
      entry: 'query',
      description: 'jobfold query: fleet list, Job status, history, explain, status at a point in time',
      // API Gateway gives up after 30 s; the function stops well before that.
      timeout: Duration.seconds(10),
    });
    this.function.bindTable(props.table, 'read');
    // Signs the list cursors (functions/query/list-cursor.ts). CloudFormation resolves the
    // secret at deploy time, so its value is in the function's configuration, not the template.
    const cursorKey = this.cursorKey = new Secret(this, 'CursorKey', {
      description: 'jobfold query API: the key that signs list cursors',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    this.function.addEnvironment('CURSOR_KEY', cursorKey.secretValue.unsafeUnwrap());
    Validations.of(cursorKey).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'The key only authenticates list cursors (paging positions, never data or access): rotating it just '
        + 'makes cursors in flight answer 400, and the function reads it at deploy time, not from Secrets Manager.',
    });

    this.api = new HttpApi(this, 'Api', {
      description: 'jobfold query API',
      createDefaultStage: false,
      defaultAuthorizer: new HttpIamAuthorizer(),
    });
    this.api.addRoutes({
      path: '/v1/{proxy+}',
      // POST only for the what-if and advise routes, which read and change nothing.
      methods: [HttpMethod.GET, HttpMethod.POST],
      integration: new HttpLambdaIntegration('Query', this.function),
    });

    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: LOG_RETENTION });
    this.stage = new HttpStage(this, 'Stage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: API_THROTTLE,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
  }
}
