/**
 * The name checks of `k8s.io/apimachinery/pkg/util/validation` that the JobSet webhook uses,
 * returning upstream's messages verbatim (`IsDNS1123Subdomain`, `IsDNS1035Label`,
 * `IsDomainPrefixedPath`).
 */

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const HTTP_PATH = new RegExp(`^${HTTP_PATH_FMT}$`);

/** `validation.MaxLenError`. */
export const maxLenError = (length: number): string => `must be no more than ${length} characters`;

/** `validation.RegexError`: the message, the examples, and the regex used. */
export function regexError(message: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${format}')`;
  // Upstream appends "', " after every example and " or " between them, hence the double space.
  const listed = examples.map((example) => `'${example}', `).join(' or ');
  return `${message} (e.g. ${listed}regex used for validation is '${format}')`;
}

export function isDns1123Subdomain(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 253) errors.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errors.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN_FMT,
        'example.com',
      ),
    );
  }
  return errors;
}

export function isDns1035Label(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push(maxLenError(63));
  if (!DNS1035_LABEL.test(value)) {
    errors.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL_FMT,
        'my-name',
        'abc-123',
      ),
    );
  }
  return errors;
}

/** `IsDomainPrefixedPath` as `{value, detail}` pairs (upstream reports the offending part). */
export function isDomainPrefixedPath(value: string): { value: string; detail: string }[] {
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const path = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host === '' || path === '') {
    return [{ value, detail: 'must be a domain-prefixed path (such as "acme.io/foo")' }];
  }
  const errors = isDns1123Subdomain(host).map((detail) => ({ value: host, detail }));
  if (!HTTP_PATH.test(path)) {
    errors.push({ value: path, detail: regexError('Invalid path', HTTP_PATH_FMT) });
  }
  return errors;
}
