import type { JobSpec } from '../../k8s/job.ts';
import { duplicate, invalid, required, type FieldError } from './field-error.ts';
import { isDNS1123Label } from './name-formats.ts';

/**
 * The container names of the pod template, as upstream's `validateInitContainers` and
 * `validateContainers` check them: each named, a DNS-1123 label, and unique across init and
 * regular containers (init containers first, as upstream walks them).
 *
 * Only the names: jobfold reads the template for container names (pod failure policy
 * `containerName`, sidecars) and nothing else of it, and the forwarder trims the rest. Whether
 * `containers` is empty is not checked either, for the same reason (see docs/events.md).
 */
export function validateContainerNames(spec: JobSpec): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const podSpec = spec.template.spec;
  const lists = [
    ['initContainers', podSpec.initContainers ?? []],
    ['containers', podSpec.containers ?? []],
  ] as const;
  for (const [list, containers] of lists) {
    containers.forEach((container, i) => {
      const path = `spec.template.spec.${list}[${i}].name`;
      const name = container.name;
      if (name.length === 0) errors.push(required(path, ''));
      else {
        for (const message of isDNS1123Label(name)) errors.push(invalid(path, name, message));
        if (seen.has(name)) errors.push(duplicate(path, name));
      }
      seen.add(name);
    });
  }
  return errors;
}
