import type { StreamId } from './event-store.ts';

/** `Job#<cluster>#<namespace>#<uid>`, each part URI-encoded: the log's partition key. */
export function streamKey(stream: StreamId): string {
  return [stream.kind, stream.clusterId, stream.namespace, stream.uid].map(encodeURIComponent).join('#');
}

export function parseStreamKey(key: string): StreamId | undefined {
  const parts = key.split('#').map(decodeURIComponent);
  const [kind, clusterId, namespace, uid] = parts;
  if (parts.length !== 4 || (kind !== 'Job' && kind !== 'JobSet') || !clusterId || !namespace || !uid) {
    return undefined;
  }
  return { kind, clusterId, namespace, uid };
}
