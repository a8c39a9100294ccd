/**
 * Compiles a Go RE2 pattern (as `regexp.MatchString` takes it) into a JavaScript RegExp for an
 * unanchored search. The common RE2 spellings JavaScript lacks are translated: leading flag
 * groups `(?i)`, `(?s)`, `(?m)`, named groups `(?P<name>...)`, `\A` and `\z`. Returns undefined
 * for a pattern that does not compile: upstream logs and skips such a pattern.
 */
export function compileRe2(pattern: string): RegExp | undefined {
  let source = pattern;
  let flags = '';
  const leading = /^\(\?([ims]+)\)/.exec(source);
  if (leading !== null) {
    flags = [...new Set(leading[1])].join('');
    source = source.slice(leading[0].length);
  }
  source = source
    .replaceAll('(?P<', '(?<')
    .replaceAll('\\A', '(?<![\\s\\S])')
    .replaceAll('\\z', '(?![\\s\\S])');
  try {
    return new RegExp(source, flags);
  } catch {
    return undefined;
  }
}

/** True when any compilable pattern is found in `message` (`anyMatchFound`). */
export function anyPatternMatches(patterns: readonly string[], message: string): boolean {
  return patterns.some((pattern) => compileRe2(pattern)?.test(message) ?? false);
}
