import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/** The HTTP API event API Gateway hands the query Lambda for a GET of `path` with `query`. */
export function apiEvent(path: string, query: Record<string, string>): APIGatewayProxyEventV2 {
  return {
    version: '2.0', routeKey: '$default', rawPath: path, rawQueryString: new URLSearchParams(query).toString(), headers: {},
    ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
    requestContext: { http: { method: 'GET', path } },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}

/** A Lambda context for calling the query handler in process, as the benches do. */
export const lambdaContext = {
  callbackWaitsForEmptyEventLoop: false, functionName: 'query', functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:query', memoryLimitInMB: '1024',
  awsRequestId: 'bench', logGroupName: '/aws/lambda/query', logStreamName: 'bench',
  getRemainingTimeInMillis: () => 120_000, done: () => {}, fail: () => {}, succeed: () => {},
} satisfies Context;
