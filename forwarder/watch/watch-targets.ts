import { BatchV1Api, CoreV1Api, type KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import { CONTROLLER_UID_LABEL } from '../../shared/job/index.ts';
import type { WatchedKind } from '../observation.ts';

/** What one informer watches: a collection path, its label selector and a full list. */
export interface WatchTarget {
  readonly kind: WatchedKind;
  readonly path: string;
  readonly labelSelector: string | undefined;
  readonly list: () => Promise<KubernetesListObject<KubernetesObject>>;
}

const LIST_PAGE_SIZE = 500;

/**
 * Pods of Jobs (the label the Job controller puts on every pod it creates) and all Jobs, in
 * one namespace or in all of them.
 */
export function watchTargets(kubeConfig: KubeConfig, namespace: string | undefined): WatchTarget[] {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const batch = kubeConfig.makeApiClient(BatchV1Api);
  const podSelector = CONTROLLER_UID_LABEL;
  const pods: WatchTarget = {
    kind: 'Pod',
    path: namespace ? `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods` : '/api/v1/pods',
    labelSelector: podSelector,
    list: () =>
      listAllPages((page) =>
        namespace
          ? core.listNamespacedPod({ namespace, labelSelector: podSelector, ...page })
          : core.listPodForAllNamespaces({ labelSelector: podSelector, ...page }),
      ),
  };
  const jobs: WatchTarget = {
    kind: 'Job',
    path: namespace ? `/apis/batch/v1/namespaces/${encodeURIComponent(namespace)}/jobs` : '/apis/batch/v1/jobs',
    labelSelector: undefined,
    list: () =>
      listAllPages((page) => (namespace ? batch.listNamespacedJob({ namespace, ...page }) : batch.listJobForAllNamespaces(page))),
  };
  return [jobs, pods];
}

type Page = { limit: number; _continue?: string };

/**
 * A full list, page by page. Every page of one list is served from the same snapshot, so the
 * last page's resourceVersion is the one to watch from.
 */
async function listAllPages(
  fetchPage: (page: Page) => Promise<KubernetesListObject<KubernetesObject>>,
): Promise<KubernetesListObject<KubernetesObject>> {
  const items: KubernetesObject[] = [];
  let token: string | undefined;
  let resourceVersion: string | undefined;
  do {
    const page = await fetchPage(token ? { limit: LIST_PAGE_SIZE, _continue: token } : { limit: LIST_PAGE_SIZE });
    items.push(...page.items);
    token = page.metadata?._continue || undefined;
    resourceVersion = page.metadata?.resourceVersion;
  } while (token);
  return { metadata: { resourceVersion }, items };
}
