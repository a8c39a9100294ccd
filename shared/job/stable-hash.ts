import { sortedObject } from '../log/canonical-json.ts';

/**
 * A deterministic 64-bit FNV-1a hash of a JSON value with sorted keys, as 16 hex digits.
 * Used for pod template hashes and deterministic command ids; not for security.
 */
export function stableHash(value: unknown): string {
  return textHash(canonicalJson(value));
}

/**
 * stableHash's 64-bit FNV-1a of a text, for a value whose JSON text is already the same for the
 * same value (one builder lays out its keys: an archived pod, snapshot.ts archivePod).
 */
export function textHash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  return sortedObject(value as Record<string, unknown>, canonicalJson);
}
