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
  /** Something worth recording that changes nothing outside, such as an ignored choice. */
  | { readonly kind: 'log'; readonly event: LifecycleEvent; readonly node: string; readonly message: string };

export type EffectKind = Effect['kind'];
