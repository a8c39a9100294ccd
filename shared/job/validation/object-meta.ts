import type { ObjectMeta } from '../../k8s/meta.ts';
import { invalid, required, tooLong, validateNonnegativeField, type FieldError } from './field-error.ts';
import { utf8Length } from './go-format.ts';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './name-formats.ts';

/**
 * `metadata` as the API server checks it on create (apimachinery `ValidateObjectMeta`), for
 * the kinds jobfold reads: Jobs, Pods and JobSets are namespaced and named as DNS-1123
 * subdomains (`ValidateReplicationControllerName`, `ValidatePodName`, and the CRD default);
 * namespaces are DNS-1123 labels. Labels, annotations, owner references and finalizers are
 * checked as upstream does, with its paths, error types and messages (owner references: kind,
 * uid and the single controller; see validateOwnerReferences).
 *
 * Nothing a real API server stored can fail this; an object that does was not written by one,
 * and is refused before anything is stored. (A NUL or a terminal escape in a name fails the
 * name's pattern, so no such name is ever stored, listed or printed.)
 */

/** apimachinery `TotalAnnotationSizeLimitB`. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

export function validateObjectMeta(meta: ObjectMeta, path = 'metadata'): FieldError[] {
  const errors: FieldError[] = [];
  if (meta.name.length === 0) errors.push(required(`${path}.name`, 'name or generateName is required'));
  else for (const message of isDNS1123Subdomain(meta.name)) errors.push(invalid(`${path}.name`, meta.name, message));
  // Every kind jobfold reads is namespaced; the forwarder always sends the namespace, but an
  // object without one is read as `default` (the API server's own default for requests).
  const namespace = meta.namespace;
  if (namespace !== undefined) {
    if (namespace.length === 0) errors.push(required(`${path}.namespace`, ''));
    else for (const message of isDNS1123Label(namespace)) errors.push(invalid(`${path}.namespace`, namespace, message));
  }
  errors.push(...validateNonnegativeField(meta.generation, `${path}.generation`));
  errors.push(...validateLabels(meta.labels ?? {}, `${path}.labels`));
  errors.push(...validateAnnotations(meta.annotations ?? {}, `${path}.annotations`));
  errors.push(...validateOwnerReferences(meta.ownerReferences ?? [], `${path}.ownerReferences`));
  errors.push(...validateFinalizers(meta.finalizers ?? [], `${path}.finalizers`));
  return errors;
}

/** `v1validation.ValidateLabels`: qualified-name keys, label values. */
export function validateLabels(labels: Readonly<Record<string, string>>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels)) {
    for (const message of isQualifiedName(key)) errors.push(invalid(path, key, message));
    for (const message of isValidLabelValue(value)) errors.push(invalid(path, value, message));
  }
  return errors;
}

/** `ValidateAnnotations`: qualified-name keys (case-insensitive), 256 KiB in all. */
export function validateAnnotations(annotations: Readonly<Record<string, string>>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations)) {
    for (const message of isQualifiedName(key.toLowerCase())) errors.push(invalid(path, key, message));
    size += utf8Length(key) + utf8Length(value);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) errors.push(tooLong(path, '', TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
  return errors;
}

/** `ValidateOwnerReferences`: each reference names its owner fully; at most one controller. */
function validateOwnerReferences(references: NonNullable<ObjectMeta['ownerReferences']>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  let firstController: string | undefined;
  for (const reference of references) {
    // Upstream also requires apiVersion and name; the event contract has always let producers
    // leave those two out (jobfold routes by kind and uid), so they are not checked here.
    const name = reference.name ?? '';
    if (reference.kind.length === 0) errors.push(invalid(`${path}.kind`, reference.kind, 'kind must not be empty'));
    if (reference.uid.length === 0) errors.push(invalid(`${path}.uid`, reference.uid, 'uid must not be empty'));
    if (reference.controller !== true) continue;
    const current = `${reference.kind}/${name}`;
    if (firstController === undefined) firstController = current;
    else {
      const detail = `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`;
      errors.push(invalid(path, references, detail));
    }
  }
  return errors;
}

const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';

/** `ValidateFinalizers`: qualified names, and not both orphan and foreground deletion. */
function validateFinalizers(finalizers: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const finalizer of finalizers) {
    for (const message of isQualifiedName(finalizer)) errors.push(invalid(path, finalizer, message));
  }
  if (finalizers.includes(ORPHAN) && finalizers.includes(FOREGROUND)) {
    errors.push(invalid(path, finalizers, `finalizer ${ORPHAN} and ${FOREGROUND} cannot be both set`));
  }
  return errors;
}
