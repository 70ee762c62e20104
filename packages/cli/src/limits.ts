// Every bound the CLI puts on what it reads and waits for, in one place (docs/security.md lists
// them and says what happens at each).

const MiB = 1024 * 1024;

/**
 * The most the-loop reads of each kind of file. A file over its cap is refused, never read in
 * part: a cut-off artifact or state file would be judged on half of it.
 */
export const READ_LIMITS = {
  /** A work item's artifact: prose, not a data dump. */
  artifact: 1 * MiB,
  /** The configuration, collaborators, the current pointer, a harness's settings file, a hook script. */
  config: 1 * MiB,
  /** A work item's graph state: it grows by an entry per transition, never by megabytes. */
  graphState: 4 * MiB,
  /** `.the-loop/baseline.json`: one short entry per accepted finding, tens of thousands at most. */
  baseline: 16 * MiB,
  /** Machine-local state (the stop hooks' counters, cached verdicts). */
  local: 4 * MiB,
  /** A critic's prompt file. */
  prompt: 16 * MiB,
  /** A hook payload, or git's pre-push lines, on stdin. */
  stdin: 8 * MiB,
  /** An evidence record: it keeps excerpts, not whole logs; anything larger was not written by the-loop. */
  evidenceRecord: 4 * MiB,
  /** A file an evidence fingerprint digests (a lockfile): larger is fingerprinted as refused. */
  environmentFile: 64 * MiB,
} as const;
