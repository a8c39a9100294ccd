/**
 * What the ingest stream takes as a partition key (Kinesis PutRecord: 1 to 256 Unicode
 * characters), and which key the bus rule's Kinesis target takes from an event. A key Kinesis
 * refuses makes EventBridge dead-letter the event after 24 h of retries, so the forwarder never
 * sends one (forwarder/observation.ts) and the dead-letter triage refuses or redrives what still
 * comes (functions/triage/undelivered-event.ts).
 */
export const MAX_PARTITION_KEY_CHARS = 256;

/** Why Kinesis would refuse `key` as a partition key, or undefined when it takes it. */
export function partitionKeyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string') return `must be a string, got ${key === null ? 'null' : typeof key}`;
  if (key === '') return 'must not be empty';
  // Kinesis documents "256 Unicode characters" without saying how it counts. Counted here in
  // UTF-16 units, never fewer than code points (the local stream's count), so a key this takes
  // Kinesis takes whichever way it counts.
  if (key.length > MAX_PARTITION_KEY_CHARS) return `must be at most ${MAX_PARTITION_KEY_CHARS} characters (Kinesis's limit), got ${key.length} UTF-16 units`;
  if (!key.isWellFormed()) return 'is not well-formed Unicode (a lone UTF-16 surrogate)';
  return undefined;
}

/**
 * The key the inbound rule's target (PartitionKeyPath `$.detail.partitionKey`) puts an event
 * under: the detail's partitionKey when it is a non-empty string, else the event's id, as
 * EventBridge falls back when the path holds no key.
 */
export function ruleTargetPartitionKey(event: { readonly id?: unknown; readonly detail?: unknown }): string {
  const detail = event.detail;
  const key = typeof detail === 'object' && detail !== null ? (detail as Record<string, unknown>)['partitionKey'] : undefined;
  return typeof key === 'string' && key !== '' ? key : String(event.id ?? '');
}
