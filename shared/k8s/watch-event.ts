/**
 * One event of a Kubernetes watch (apimachinery's metav1.WatchEvent: `type` and `object`), as
 * the kube API's `?watch=1` sends it (functions/kube/watch.ts).
 */
export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: unknown;
}
