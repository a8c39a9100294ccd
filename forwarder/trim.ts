import { InboundDetailType, inboundDetailSchemas } from '../shared/contract/inbound.ts';

/**
 * Trimming: a Kubernetes object cut down to the fields the fold reads, using the event
 * contract's own schemas (zod drops unknown keys), so what is sent is exactly what
 * `parseInbound` accepts. Anything the schemas refuse comes back with the reason.
 */
export type TrimResult =
  | { readonly ok: true; readonly object: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly reason: string };

/** Written by `kubectl apply`: a copy of the whole spec that nothing reads, often the biggest field. */
const DROPPED_ANNOTATIONS = ['kubectl.kubernetes.io/last-applied-configuration'];

export function trimObject(detailType: InboundDetailType, raw: unknown): TrimResult {
  const plain = withoutDroppedAnnotations(toPlainJson(raw));
  const parsed = inboundDetailSchemas[detailType].shape.object.safeParse(plain);
  if (parsed.success) return { ok: true, object: parsed.data as Record<string, unknown> };
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { ok: false, reason: issues.join('; ') };
}

export const trimPod = (raw: unknown) => trimObject(InboundDetailType.PodObserved, raw);
export const trimJob = (raw: unknown) => trimObject(InboundDetailType.JobObserved, raw);

/**
 * The same object as the API server wrote it. Watch events are raw JSON, but listed objects
 * come through the client's model classes, which turn timestamps into `Date`s; metav1.Time
 * has second precision, so they go back to `2006-01-02T15:04:05Z` and both paths agree.
 */
export function toPlainJson(value: unknown): unknown {
  if (value instanceof Date) return formatKubernetesTime(value);
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) out[key] = toPlainJson(item);
    }
    return out;
  }
  return value;
}

export function formatKubernetesTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function withoutDroppedAnnotations(value: unknown): unknown {
  const metadata = (value as { metadata?: { annotations?: Record<string, string> } } | null)?.metadata;
  if (!metadata?.annotations) return value;
  for (const key of DROPPED_ANNOTATIONS) delete metadata.annotations[key];
  if (Object.keys(metadata.annotations).length === 0) delete metadata.annotations;
  return value;
}
