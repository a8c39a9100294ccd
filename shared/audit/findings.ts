/** What `jobfold verify` found wrong with a Job's record; an empty list means it holds. */
export type Finding =
  | { readonly kind: 'changed'; readonly seq: number; readonly eventId: string }
  | { readonly kind: 'removed'; readonly seq: number }
  | { readonly kind: 'inserted'; readonly seq: number; readonly eventId: string }
  | { readonly kind: 'reordered'; readonly seq: number; readonly eventId: string; readonly originalSeq: number }
  | { readonly kind: 'unchained'; readonly seq: number; readonly eventId: string }
  | { readonly kind: 'headMismatch'; readonly seq: number; readonly eventId: string; readonly readHead: number }
  | { readonly kind: 'notReproduced'; readonly seq: number; readonly eventId: string; readonly foldVersion: string | undefined; readonly recorded: string; readonly refolded: string }
  | { readonly kind: 'foldVersionChanged'; readonly seq: number; readonly eventId: string; readonly foldVersion: string; readonly currentVersion: string; readonly recorded: string; readonly refolded: string }
  | { readonly kind: 'unreadable'; readonly seq: number; readonly message: string };

/** One line per finding, as `jobfold verify` prints them. */
export function describeFinding(finding: Finding): string {
  switch (finding.kind) {
    case 'changed':
      return `entry ${finding.seq} (${finding.eventId}) was changed: its content no longer matches its hash`;
    case 'removed':
      return `entry ${finding.seq} was removed: the log has no entry at that position`;
    case 'inserted':
      return `entry ${finding.seq} (${finding.eventId}) was inserted: it chains from no entry of the log`;
    case 'reordered':
      return `entry ${finding.seq} (${finding.eventId}) was moved: it was recorded at position ${finding.originalSeq}`;
    case 'unchained':
      return `entry ${finding.seq} (${finding.eventId}) carries no hash`;
    case 'headMismatch':
      return `decision ${finding.seq} (${finding.eventId}) read the log at ${finding.readHead}, whose hash is not the one it recorded`;
    case 'notReproduced':
      return `decision ${finding.seq} (${finding.eventId}) is not what the fold (version ${finding.foldVersion ?? 'unrecorded'}, the same) decides there: recorded ${finding.recorded}; refolded ${finding.refolded}`;
    case 'foldVersionChanged':
      return `decision ${finding.seq} (${finding.eventId}) was taken by fold ${finding.foldVersion}; this fold (${finding.currentVersion}) decides differently — a newer fold, not tampering: recorded ${finding.recorded}; refolded ${finding.refolded}`;
    case 'unreadable':
      return `entry ${finding.seq} cannot be read back: ${finding.message}`;
  }
}
