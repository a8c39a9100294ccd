import * as z from 'zod';
import { groupVersion, RESOURCES, type ServedResource } from './resources.ts';
import { decodeReview, ProtobufError } from './review-protobuf.ts';
import { KubeError } from './status.ts';

// "May I?" as clients ask the API server: `kubectl auth can-i` (a SelfSubjectAccessReview),
// `kubectl auth can-i --list` (a SelfSubjectRulesReview), and dashboards such as k9s and
// Headlamp, which ask before they list. A caller that reaches this API is authenticated and
// allowed to read (the token authorizer in AWS; loopback locally), so the answer is what jobfold
// serves: get, list and watch of its resources, and no write, no pod logs, no exec, whoever
// asks. The answers name where to go instead, as the read-only Status does (status.ts).

export const AUTHORIZATION_GROUP = 'authorization.k8s.io';
const REVIEW_VERSION = 'v1';
export const REVIEW_RESOURCES = ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] as const;
export type ReviewResource = (typeof REVIEW_RESOURCES)[number];

/** A review's body is a few hundred bytes; anything past this is refused before it is parsed. */
export const MAX_REVIEW_BYTES = 64 * 1024;

const field = z.string().max(1024).optional();
const ResourceAttributesSchema = z.object({ namespace: field, verb: field, group: field, version: field, resource: field, subresource: field, name: field });
const NonResourceAttributesSchema = z.object({ path: field, verb: field });
const AccessReviewSchema = z.object({
  apiVersion: z.literal(`${AUTHORIZATION_GROUP}/${REVIEW_VERSION}`).optional(),
  kind: z.literal('SelfSubjectAccessReview').optional(),
  spec: z.object({ resourceAttributes: ResourceAttributesSchema.optional(), nonResourceAttributes: NonResourceAttributesSchema.optional() }),
});
const RulesReviewSchema = z.object({
  apiVersion: z.literal(`${AUTHORIZATION_GROUP}/${REVIEW_VERSION}`).optional(),
  kind: z.literal('SelfSubjectRulesReview').optional(),
  spec: z.object({ namespace: field }).default({}),
});
type ResourceAttributes = z.infer<typeof ResourceAttributesSchema>;
type NonResourceAttributes = z.infer<typeof NonResourceAttributesSchema>;

/** What a POST of a review answers: 201 and the review with its status, as the API server does. */
export interface ReviewAnswer {
  readonly code: 201;
  readonly body: Record<string, unknown>;
}

/** Answers a review POSTed to `resource`; `cluster` names the context to act in instead. */
export function answerReview(resource: ReviewResource, contentType: string | undefined, body: Uint8Array | undefined, cluster: string): ReviewAnswer {
  const kind = resource === 'selfsubjectaccessreviews' ? 'SelfSubjectAccessReview' : 'SelfSubjectRulesReview';
  const raw = readBody(kind, contentType, body);
  if (resource === 'selfsubjectrulesreviews') {
    const review = parseReview(kind, RulesReviewSchema, raw);
    return created(kind, review.spec, { ...rulesStatus(), incomplete: false });
  }
  const review = parseReview(kind, AccessReviewSchema, raw);
  const { resourceAttributes, nonResourceAttributes } = review.spec;
  // Upstream's validation (pkg/apis/authorization/validation): exactly one of the two.
  if ((resourceAttributes === undefined) === (nonResourceAttributes === undefined)) {
    const detail = resourceAttributes === undefined
      ? 'spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified'
      : 'spec.nonResourceAttributes: Invalid value: "object": cannot be specified in combination with resourceAttributes';
    throw new KubeError(422, 'Invalid', `${kind}.${AUTHORIZATION_GROUP} "" is invalid: ${detail}`, { group: AUTHORIZATION_GROUP, kind, causes: [{ reason: 'FieldValueInvalid', message: detail, field: detail.split(':')[0] }] });
  }
  const status = resourceAttributes !== undefined ? resourceAccess(resourceAttributes, cluster) : nonResourceAccess(nonResourceAttributes as NonResourceAttributes);
  return created(kind, review.spec, status);
}

function created(kind: string, spec: unknown, status: Record<string, unknown>): ReviewAnswer {
  return { code: 201, body: { kind, apiVersion: `${AUTHORIZATION_GROUP}/${REVIEW_VERSION}`, metadata: { creationTimestamp: null }, spec, status } };
}

function readBody(kind: string, contentType: string | undefined, body: Uint8Array | undefined): unknown {
  const bytes = Buffer.from(body ?? new Uint8Array());
  if (bytes.length > MAX_REVIEW_BYTES) throw new KubeError(413, 'RequestEntityTooLarge', `the request body is ${bytes.length} bytes; a ${kind} is at most ${MAX_REVIEW_BYTES}`);
  const type = (contentType ?? 'application/json').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/vnd.kubernetes.protobuf') {
    try {
      return decodeReview(bytes);
    } catch (error) {
      if (error instanceof ProtobufError) throw new KubeError(400, 'BadRequest', `${kind} in version "${REVIEW_VERSION}" cannot be handled as a ${kind}: ${error.message}`);
      throw error;
    }
  }
  if (type !== 'application/json' && type !== '*/*') {
    throw new KubeError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json, application/vnd.kubernetes.protobuf (got ${JSON.stringify(type?.slice(0, 100))})`);
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new KubeError(400, 'BadRequest', `${kind} in version "${REVIEW_VERSION}" cannot be handled as a ${kind}: the body is not JSON (${(error as Error).message.slice(0, 200)})`);
  }
}

function parseReview<T extends z.ZodType>(kind: string, schema: T, raw: unknown): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  throw new KubeError(400, 'BadRequest', `${kind} in version "${REVIEW_VERSION}" cannot be handled as a ${kind}: ${path === '' ? '' : `${path}: `}${issue?.message ?? 'invalid'}`, path === '' ? undefined : { causes: [{ reason: 'FieldValueInvalid', message: issue?.message ?? '', field: path }] });
}

const readVerbs = (resource: ServedResource) => resource.verbs.join(', ');
const elsewhere = (cluster: string) => `use the cluster's own API server (your kubectl context for ${cluster}, not jobfold-${cluster})`;

function resourceAccess(attributes: ResourceAttributes, cluster: string): Record<string, unknown> {
  const { verb = '', group = '', version = '', resource = '', subresource = '' } = attributes;
  const served = RESOURCES.find((r) => r.group === group && r.resource === resource && (version === '' || version === '*' || version === r.version));
  const qualified = group === '' ? resource : `${resource}.${group}`;
  if (served === undefined && (resource === '*' || group === '*')) {
    return { allowed: false, denied: true, reason: `jobfold is read-only and serves only ${RESOURCES.map((r) => r.resource).join(', ')}, for get, list and watch; for anything else, ${elsewhere(cluster)}` };
  }
  if (served === undefined) {
    return { allowed: false, reason: `jobfold serves no ${qualified || 'such resource'} (${version === '' ? 'any version' : groupVersion(group, version)}): it shows what it recorded of Jobs, JobSets, their pods, events and namespaces` };
  }
  if (served.resource === 'pods' && (subresource === 'log' || subresource === 'exec' || subresource === 'attach' || subresource === 'portforward')) {
    const why = subresource === 'log' ? 'jobfold keeps no container logs' : 'jobfold reaches into no container';
    return { allowed: false, denied: true, reason: `${why}: for pods/${subresource}, ${elsewhere(cluster)}` };
  }
  if (subresource !== '' && !served.subresources.includes(subresource)) {
    return { allowed: false, reason: `jobfold serves no ${served.resource}/${subresource}` };
  }
  if (!served.verbs.includes(verb)) {
    return { allowed: false, denied: true, reason: `jobfold is read-only: it serves ${qualified} for ${readVerbs(served)}; to ${verb || 'act on'} them, ${elsewhere(cluster)}` };
  }
  return { allowed: true, reason: `jobfold serves ${qualified} for ${readVerbs(served)}, read-only` };
}

/** The discovery documents, the probes and the version: every path a client reads outside the resources. */
const NON_RESOURCE_URLS = ['/', '/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/readyz', '/version'];

function nonResourceAccess(attributes: NonResourceAttributes): Record<string, unknown> {
  const { path = '', verb = '' } = attributes;
  const served = NON_RESOURCE_URLS.some((url) => (url.endsWith('/*') ? path.startsWith(url.slice(0, -1)) || path === url.slice(0, -2) : path === url));
  if (!served) return { allowed: false, reason: `jobfold serves no ${path || 'such path'} (it serves ${NON_RESOURCE_URLS.join(', ')})` };
  if (verb !== 'get') return { allowed: false, denied: true, reason: `jobfold is read-only: ${path} is served for get` };
  return { allowed: true, reason: `jobfold serves ${path} for get` };
}

/** `kubectl auth can-i --list`: every resource with its read verbs, and the discovery paths. */
function rulesStatus(): Record<string, unknown> {
  return {
    resourceRules: RESOURCES.map((r) => ({ verbs: [...r.verbs], apiGroups: [r.group], resources: [r.resource, ...r.subresources.map((s) => `${r.resource}/${s}`)] })),
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: NON_RESOURCE_URLS }],
  };
}
