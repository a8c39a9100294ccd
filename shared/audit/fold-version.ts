/**
 * The version of the fold's decisions: bump it whenever a change to shared/job or shared/jobset
 * (or the policies) makes the fold decide differently on some log. Every decision records the version
 * that took it, so `jobfold verify` can tell a decision a newer fold no longer reproduces from
 * a decision that was tampered with.
 */
export const FOLD_VERSION = 'fold-2026-11-29.71';
