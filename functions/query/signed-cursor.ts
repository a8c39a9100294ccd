import { createHmac, timingSafeEqual } from 'node:crypto';

// The envelope of every opaque cursor the API returns (the fleet list's, the commands list's):
// a JSON payload, base64url-encoded, a dot, then an HMAC-SHA256 of the payload's bytes under the
// query function's cursor key (CURSOR_KEY, injected at the boundary). A `purpose` label mixed into
// the MAC keeps one kind of cursor from passing for another; the fleet list's cursor has none, as
// it had before the label existed, so its cursors stay valid. Each kind checks its own fields.

/** The secret cursors are signed with; at least 32 bytes. */
export type CursorKey = Uint8Array;

const MAC_BYTES = 32;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function sealCursor(key: CursorKey, fields: object, purpose = ''): string {
  const payload = Buffer.from(JSON.stringify(fields), 'utf8');
  return `${payload.toString('base64url')}.${mac(key, purpose, payload).toString('base64url')}`;
}

/**
 * What a cursor this API sealed holds (`payload`: its parsed JSON, undefined when it is not
 * JSON), or why it is refused (`refusal`, the message of the 400).
 */
export function openCursor(key: CursorKey, cursor: string, purpose = ''): { payload: unknown } | { refusal: string } {
  const [body, signature, ...rest] = cursor.split('.');
  if (body === undefined || signature === undefined || rest.length > 0 || !BASE64URL.test(body) || !BASE64URL.test(signature)) {
    return { refusal: 'is not a cursor this API returned' };
  }
  const payload = Buffer.from(body, 'base64url');
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(key, purpose, payload))) {
    return { refusal: 'is not a cursor this API returned (altered, truncated, or signed with another key)' };
  }
  try {
    return { payload: JSON.parse(payload.toString('utf8')) };
  } catch {
    return { payload: undefined };
  }
}

function mac(key: CursorKey, purpose: string, payload: Buffer): Buffer {
  return createHmac('sha256', key).update(purpose).update(payload).digest();
}
