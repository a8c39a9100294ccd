/**
 * Names, reasons and messages come from clusters and may hold anything, including terminal
 * escapes (`\u001b[31m`), NUL or bidi overrides that make a line read differently from what it
 * holds. Every human-readable output (explain, replay, describe) passes what it prints through
 * `printable`, so a hostile name is shown, escaped, and never acted on by a terminal.
 *
 * Escaped: C0 controls (`\n`, `\t`, `\r` by name, the rest as `\xNN`), DEL, C1 controls, the
 * line and paragraph separators and the bidi controls (as `\uNNNN`). Everything else, including
 * backslashes, is kept so that upstream's messages read verbatim.
 */

const NAMED: Readonly<Record<number, string>> = { 0x09: '\\t', 0x0a: '\\n', 0x0d: '\\r' };

// C0, DEL, C1, U+2028/2029, bidi embeddings/overrides/isolates and marks, BOM.
const NEEDS_ESCAPE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;
const ESCAPES = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

function escapeOne(char: string): string {
  const code = char.charCodeAt(0);
  const named = NAMED[code];
  if (named !== undefined) return named;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control character escaped; the same string when there is none. */
export function printable(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPES, escapeOne) : text;
}

/** Multi-line output: each line made printable, the line breaks kept. */
export function printableLines(text: string): string {
  return text.split('\n').map(printable).join('\n');
}

/** Whether `text` holds a character `printable` would escape. */
export function hasControlCharacters(text: string): boolean {
  return NEEDS_ESCAPE.test(text);
}
