// The codes a stored pod's fields take in the tuples of the archive (archive-codec.ts) and of a
// snapshot's live pods (snapshot.ts): what is not stored when another field gives it, and what is
// stored as a difference. Each code decodes to exactly the value encoded; a value no code covers
// goes whole, marked so it is never taken for a code (a one-element array).

/** The pod before in the group or snapshot: its lastSeq and its resourceVersion as a number (the last that had one). */
export interface Previous {
  lastSeq: number;
  version: number;
}

/**
 * The last eventId: null when it is the forwarder's `<uid>/<version>` (or there is neither), 0
 * when there is none beside a version, what follows `<uid>/` as a string, any other id in a
 * one-element array.
 */
export function eventIdCode(id: string | undefined, uid: string, version: string | undefined): unknown {
  if (id === undefined) return version === undefined ? null : 0;
  if (version !== undefined && id === `${uid}/${version}`) return null;
  return id.startsWith(`${uid}/`) ? id.slice(uid.length + 1) : [id];
}

export function eventIdOf(code: unknown, uid: string, version: string | undefined): string | undefined {
  if (code === undefined || code === null) return version === undefined ? undefined : `${uid}/${version}`;
  if (code === 0) return undefined;
  if (Array.isArray(code)) return code[0] as string;
  return `${uid}/${code as string}`;
}

/** A UUID as the API server makes them (lowercase; upper case would not come back the same). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A UUID as its 16 bytes in base64url (22 characters); any other uid whole, in a one-element array. */
export function packUid(uid: string): string | [string] {
  return UUID.test(uid) ? Buffer.from(uid.replaceAll('-', ''), 'hex').toString('base64url') : [uid];
}

export function unpackUid(code: unknown): string {
  if (Array.isArray(code)) return code[0] as string;
  if (typeof code !== 'string' || !/^[A-Za-z0-9_-]{21}[AQgw]$/.test(code)) throw new Error(`stored pod: uid ${describe(code)} is not 16 bytes in base64url`);
  const hex = Buffer.from(code as string, 'base64url').toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What `name` has before its `<index>-` (upstream's generateName for an Indexed Job's pod, `<job>-<index>-`). */
export function namePrefix(name: string, index: number): string | undefined {
  const at = name.lastIndexOf(`-${index}-`);
  return at < 0 ? undefined : name.slice(0, at + 1);
}

/** The name: what follows `<prefix><index>-` as a string, any other name whole in a one-element array. */
export function nameCode(name: string, index: number, prefix: string | undefined): string | [string] {
  if (prefix === undefined) return name;
  const start = `${prefix}${index}-`;
  return name.startsWith(start) ? name.slice(start.length) : [name];
}

export function nameOf(code: unknown, index: number, prefix: string | undefined): string {
  if (Array.isArray(code)) return code[0] as string;
  return prefix === undefined ? (code as string) : `${prefix}${index}-${code as string}`;
}

/** A resourceVersion that reads back from a number: a plain decimal integer within 2^53. */
const NUMERIC_VERSION = /^(0|[1-9][0-9]{0,14})$/;

/** The resourceVersion: a number, its difference from the pod before's; any other version as the string. */
export function versionCode(version: string | undefined, previous: Previous): number | string | null {
  if (version === undefined) return null;
  if (!NUMERIC_VERSION.test(version)) return version;
  const value = Number(version);
  const code = value - previous.version;
  previous.version = value;
  return code;
}

export function versionOf(code: unknown, previous: Previous): string | undefined {
  if (code === undefined || code === null) return undefined;
  if (typeof code === 'string') return code;
  previous.version += code as number;
  return String(previous.version);
}

const describe = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};
