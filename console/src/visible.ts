// Names and messages come from clusters and may carry control characters, bidi overrides or
// invisible characters. Preact writes text as text (never as markup); on top of that, these
// characters are shown escaped (`\u0007`) so a name cannot hide or reorder what is on screen.

const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\ufff9-\ufffb\ud800-\udfff]/gu;

/** The text with every control or invisible character written as `\uXXXX`. */
export function visible(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  return text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
