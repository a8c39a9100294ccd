import { GetRoleCommand, SimulatePrincipalPolicyCommand, type IAMClient } from '@aws-sdk/client-iam';

// Who may read the kube API: the same principals as the IAM-authorized /v1 routes, those whose
// IAM policies allow `execute-api:Invoke` on the API (docs/deploy.md: "give a role
// execute-api:Invoke on ApiInvokeArn"). The authorizer asks IAM's policy simulator, for the
// caller's role (an assumed-role session is its role; GetRole gives the role's path) or user,
// whether it may invoke `GET /v1/jobs` on this API. The answer is kept CACHE_MS per principal.
// Root and federated-user sessions are refused: use a role.

export interface AllowList {
  /** Whether `callerArn` (from STS) may read the API whose `GET /v1/jobs` is `resourceArn`. */
  allows(callerArn: string, resourceArn: string): Promise<{ allowed: boolean; reason: string }>;
}

export const CACHE_MS = 5 * 60_000;

export function iamAllowList(iam: IAMClient, now: () => number = Date.now): AllowList {
  const cache = new Map<string, { at: number; verdict: { allowed: boolean; reason: string } }>();
  return {
    async allows(callerArn, resourceArn) {
      const key = `${callerArn} ${resourceArn}`;
      const hit = cache.get(key);
      if (hit !== undefined && now() - hit.at < CACHE_MS) return hit.verdict;
      const verdict = await decide(iam, callerArn, resourceArn);
      cache.set(key, { at: now(), verdict });
      if (cache.size > 10_000) cache.delete(cache.keys().next().value as string);
      return verdict;
    },
  };
}

async function decide(iam: IAMClient, callerArn: string, resourceArn: string): Promise<{ allowed: boolean; reason: string }> {
  const principal = await principalArn(iam, callerArn);
  if (principal === undefined) return { allowed: false, reason: `${callerArn} is not a role session or an IAM user` };
  const result = await iam.send(new SimulatePrincipalPolicyCommand({
    PolicySourceArn: principal,
    ActionNames: ['execute-api:Invoke'],
    ResourceArns: [resourceArn],
  }));
  const decision = result.EvaluationResults?.[0]?.EvalDecision;
  return decision === 'allowed'
    ? { allowed: true, reason: `${principal} may invoke ${resourceArn}` }
    : { allowed: false, reason: `${principal} may not invoke ${resourceArn} (${decision ?? 'no decision'})` };
}

/** The IAM role or user behind an STS caller ARN; undefined for root and federated users. */
async function principalArn(iam: IAMClient, callerArn: string): Promise<string | undefined> {
  const assumed = /^arn:(aws[a-z-]*):sts::(\d{12}):assumed-role\/([\w+=,.@-]{1,64})\/[^/]+$/.exec(callerArn);
  if (assumed !== null) {
    const role = await iam.send(new GetRoleCommand({ RoleName: assumed[3] }));
    return role.Role?.Arn;
  }
  if (/^arn:aws[a-z-]*:iam::\d{12}:user\/.+$/.test(callerArn)) return callerArn;
  return undefined;
}

/** `arn:…:execute-api:<region>:<account>:<api>/<stage>/GET/v1/jobs` from the authorizer's route ARN. */
export function readResourceArn(routeArn: string): string | undefined {
  const match = /^(arn:aws[a-z-]*:execute-api:[a-z0-9-]+:\d{12}:[a-z0-9]+\/[^/]+)\//.exec(routeArn);
  return match === null ? undefined : `${match[1]}/GET/v1/jobs`;
}
