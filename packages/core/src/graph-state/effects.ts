/** The node lifecycle events a graph declares `notify` roles for. */
export const LIFECYCLE_EVENTS = ['onEnter', 'onExit', 'onGateFail', 'onAwaitHuman', 'onEscalate', 'onExitGraph'] as const;
export type LifecycleEvent = (typeof LIFECYCLE_EVENTS)[number];

/** A row of the execution log's "Phase transitions" table. */
export interface TransitionRow {
  readonly at: string;
  readonly from: string;
  readonly to: string;
  readonly outcome: string;
  readonly note: string;
}

/** An escalation as the work item's `conflicts.md` records it, for the person who resolves it. */
export interface ConflictEntry {
  readonly at: string;
  readonly node: string;
  /** Unmet attempts at the node so far. */
  readonly attempts: number;
  readonly reason: string;
  /** The findings that were still unmet (or repeated), one line each. */
  readonly findings: readonly string[];
  /** What was tried at the node, one line each (an orchestrated run lists its attempts). */
  readonly tried: readonly string[];
}

/**
 * What a transition asks the outside world to do. Core only describes it; the CLI's adapters
 * execute it and report each one as done, skipped (with the reason) or failed.
 */
export type Effect =
  /** Replace the issue's `loop:*` label with this one, leaving other labels alone. */
  | { readonly kind: 'set-label'; readonly event: LifecycleEvent; readonly node: string; readonly label: string }
  /** Append a row to the execution log's "Phase transitions" table. */
  | { readonly kind: 'log-transition'; readonly event: LifecycleEvent; readonly node: string; readonly row: TransitionRow }
  /** Set the execution log's `phase:` front-matter, so the mirror follows the graph. */
  | { readonly kind: 'set-log-phase'; readonly event: LifecycleEvent; readonly node: string; readonly phase: string }
  /** Tell the collaborators holding these roles. */
  | { readonly kind: 'notify'; readonly event: LifecycleEvent; readonly node: string; readonly roles: readonly string[]; readonly message: string }
  /** The next node's assignment, for the agent (or orchestrator) that works it. */
  | { readonly kind: 'assignment'; readonly event: LifecycleEvent; readonly node: string; readonly text: string }
  /** Append an entry to the work item's `conflicts.md`, creating the file when absent. */
  | { readonly kind: 'record-conflict'; readonly event: LifecycleEvent; readonly node: string; readonly entry: ConflictEntry }
  /** Something worth recording that changes nothing outside, such as an ignored choice. */
  | { readonly kind: 'log'; readonly event: LifecycleEvent; readonly node: string; readonly message: string };

export type EffectKind = Effect['kind'];
