/**
 * Upstream bounds a condition's message at 32768 bytes (`metav1.Condition`, maxLength 32768);
 * jobfold writes the same bound on every message it copies into a condition, a decision or a
 * command, whatever the cluster sent, so no reported string can push an entry past the store.
 */
export const MAX_MESSAGE_BYTES = 32768;

const SUFFIX = '... (truncated)';

/** `text` if it fits in `maxBytes` UTF-8 bytes, else its longest prefix that does, marked. */
export function boundedText(text: string, maxBytes: number = MAX_MESSAGE_BYTES): string {
  // Fast path: even at 3 bytes a UTF-16 unit (4 per surrogate pair) it fits.
  if (text.length * 3 <= maxBytes) return text;
  const budget = maxBytes - SUFFIX.length;
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const c = text.charCodeAt(end);
    const pair = isHigh(c) && end + 1 < text.length && isLow(text.charCodeAt(end + 1));
    const width = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + width > maxBytes) break;
    bytes += width;
    end += pair ? 2 : 1;
  }
  if (end === text.length) return text;
  // Cut again to leave room for the marker, never inside a surrogate pair.
  let cut = end;
  while (cut > 0 && utf8Bytes(text.slice(0, cut)) > budget) cut--;
  if (cut > 0 && isLow(text.charCodeAt(cut)) && isHigh(text.charCodeAt(cut - 1))) cut--;
  return text.slice(0, cut) + SUFFIX;
}

const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;

/** UTF-8 length of a string (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (isHigh(c) && i + 1 < text.length && isLow(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Upstream's bound on a condition's reason (`metav1.Condition`, maxLength 1024). */
export const MAX_REASON_BYTES = 1024;
