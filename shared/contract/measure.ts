// The size, depth, forbidden keys and ill-formed strings of an inbound event's JSON, measured
// before anything reads it (parse-inbound.ts checkEnvelope): hostile input may be huge, deep,
// or carry `__proto__`.

/** EventBridge refuses entries over 256 KiB; so does jobfold, whatever the transport. */
export const MAX_EVENT_BYTES = 256 * 1024;
/** Kubernetes objects are shallow; anything deeper is hostile input. */
export const MAX_JSON_DEPTH = 32;

/**
 * Size (UTF-8 bytes of its JSON text), depth, and the path of a forbidden key of a JSON value,
 * without recursion: hostile input may be very deep.
 */
export interface Measured {
  bytes: number;
  depth: number;
  forbiddenKey: string | undefined;
  /** The first key or string that is not well-formed UTF-16 (a lone surrogate). */
  illFormed?: { path: string; in: 'the key' | 'the value' };
}

export function measure(value: unknown): Measured {
  const quick = measureQuickly(value);
  return quick ?? measureWithPaths(value);
}

/**
 * measure without the paths (every inbound observation is measured, and building each node's
 * path was a fifth of parsing one): the same walk in the same order, so the same bytes and
 * depth. Undefined when it meets a forbidden key or an ill-formed string: measureWithPaths then
 * walks again to name where.
 */
function measureQuickly(value: unknown): Measured | undefined {
  let bytes = 0;
  let depth = 0;
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop();
    const d = depths.pop() as number;
    if (d > depth) depth = d;
    if (depth > MAX_JSON_DEPTH || bytes > MAX_EVENT_BYTES) break;
    if (typeof v === 'string') {
      bytes += jsonStringBytes(v);
      if (!v.isWellFormed()) return undefined;
    }
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null) bytes += 5;
    else if (Array.isArray(v)) {
      bytes += 2;
      v.forEach((item) => {
        values.push(item);
        depths.push(d + 1);
      });
    } else if (typeof v === 'object' && v !== null) {
      bytes += 2;
      for (const k of Object.keys(v)) {
        if (k === '__proto__' || !k.isWellFormed()) return undefined;
        bytes += jsonStringBytes(k) + 1;
        values.push((v as Record<string, unknown>)[k]);
        depths.push(d + 1);
      }
    }
  }
  return { bytes, depth, forbiddenKey: undefined, illFormed: undefined };
}

/** measure as it was first written, naming paths as it walks (exported for the test that compares the two). */
export function measureWithPaths(value: unknown): Measured {
  let bytes = 0;
  let depth = 0;
  let illFormed: Measured['illFormed'];
  const stack: Array<[unknown, number, string]> = [[value, 1, '']];
  while (stack.length > 0) {
    const [v, d, path] = stack.pop() as [unknown, number, string];
    if (d > depth) depth = d;
    if (depth > MAX_JSON_DEPTH || bytes > MAX_EVENT_BYTES) break;
    if (typeof v === 'string') {
      bytes += jsonStringBytes(v);
      if (!illFormed && !v.isWellFormed()) illFormed = { path: path.toWellFormed(), in: 'the value' };
    }
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null) bytes += 5;
    else if (Array.isArray(v)) {
      bytes += 2;
      v.forEach((item, i) => stack.push([item, d + 1, `${path}[${i}]`]));
    } else if (typeof v === 'object' && v !== null) {
      bytes += 2;
      for (const [k, item] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        // JSON.parse makes "__proto__" an own key; refuse it rather than let it near any object.
        if (k === '__proto__') return { bytes, depth, forbiddenKey: at };
        if (!illFormed && !k.isWellFormed()) illFormed = { path: at.toWellFormed(), in: 'the key' };
        bytes += jsonStringBytes(k) + 1;
        stack.push([item, d + 1, at]);
      }
    }
  }
  return { bytes, depth, forbiddenKey: undefined, illFormed };
}

/** UTF-8 bytes of a string written as JSON (quotes and escapes included). */
function jsonStringBytes(text: string): number {
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) bytes += 2;
    else if (c < 0x20) bytes += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4; // a surrogate pair is one 4-byte character
      i++;
    } else bytes += 3;
  }
  return bytes;
}
