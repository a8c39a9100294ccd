import { invalid, required, type FieldError } from './field-error.ts';
import { regexError, utf8Length } from './go-format.ts';

/**
 * The apimachinery name formats Job validation relies on (k8s.io/apimachinery/pkg/util/validation):
 * qualified names (pod condition types) and domain-prefixed paths (`managedBy`), with their
 * messages verbatim.
 */

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERROR_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
const DNS1123_SUBDOMAIN_REGEXP = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);

const DNS1123_LABEL_ERROR_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_MAX_LENGTH = 63;
const DNS1123_LABEL_REGEXP = new RegExp(`^${DNS1123_LABEL_FMT}$`);

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_ERR_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX_LENGTH = 63;
const QUALIFIED_NAME_REGEXP = new RegExp(`^${QUALIFIED_NAME_FMT}$`);

const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_ERR_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX_LENGTH = 63;
const LABEL_VALUE_REGEXP = new RegExp(`^${LABEL_VALUE_FMT}$`);

const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_REGEXP = new RegExp(`^${HTTP_PATH_FMT}$`);

function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** `IsDNS1123Subdomain`: the messages of every violation, empty when valid. */
export function isDNS1123Subdomain(value: string): string[] {
  const errors: string[] = [];
  if (utf8Length(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errors.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!DNS1123_SUBDOMAIN_REGEXP.test(value)) {
    errors.push(regexError(DNS1123_SUBDOMAIN_ERROR_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  }
  return errors;
}

/** `IsDNS1123Label`: the messages of every violation, empty when valid. */
export function isDNS1123Label(value: string): string[] {
  const errors: string[] = [];
  if (utf8Length(value) > DNS1123_LABEL_MAX_LENGTH) errors.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!DNS1123_LABEL_REGEXP.test(value)) {
    errors.push(regexError(DNS1123_LABEL_ERROR_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errors;
}

/** `IsValidLabelValue`: empty, or a qualified name's name part of at most 63 characters. */
export function isValidLabelValue(value: string): string[] {
  const errors: string[] = [];
  if (utf8Length(value) > LABEL_VALUE_MAX_LENGTH) errors.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!LABEL_VALUE_REGEXP.test(value)) {
    errors.push(regexError(LABEL_VALUE_ERR_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  }
  return errors;
}

/** `IsQualifiedName`: `[prefix/]name`, the messages of every violation, empty when valid. */
export function isQualifiedName(value: string): string[] {
  const errors: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else errors.push(...isDNS1123Subdomain(prefix).map((message) => `prefix part ${message}`));
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (utf8Length(name) > QUALIFIED_NAME_MAX_LENGTH) errors.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`);
  if (!QUALIFIED_NAME_REGEXP.test(name)) {
    errors.push(`name part ${regexError(QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errors;
}

/** `apivalidation.ValidateQualifiedName`: one Invalid error per violation. */
export function validateQualifiedName(value: string, field: string): FieldError[] {
  return isQualifiedName(value).map((message) => invalid(field, value, message));
}

/** `IsDomainPrefixedPath`: a DNS subdomain, `/`, then HTTP path characters (`acme.io/foo`). */
export function validateDomainPrefixedPath(field: string, value: string): FieldError[] {
  if (value.length === 0) return [required(field, '')];
  const slash = value.indexOf('/');
  const host = slash === -1 ? '' : value.slice(0, slash);
  const path = slash === -1 ? '' : value.slice(slash + 1);
  if (host.length === 0 || path.length === 0) {
    return [invalid(field, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errors = isDNS1123Subdomain(host).map((message) => invalid(field, host, message));
  if (!HTTP_PATH_REGEXP.test(path)) {
    errors.push(invalid(field, path, regexError('Invalid path', HTTP_PATH_FMT)));
  }
  return errors;
}
