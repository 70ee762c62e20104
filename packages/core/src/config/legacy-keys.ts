// Keys the earlier (Python) the-loop wrote into its configuration files, and what replaces each
// here. A repository that arrives with them gets a migration note, not a bare "unknown key".

const FROM_EARLIER = ' — a key of the earlier the-loop:';

const HARNESS_CONFIG: Readonly<Record<string, string>> = {
  specApproach: 'the lifecycle is the graph now; pick a layout with workflow.preset or declare workflow.graph, then delete it',
  requireHumanReviewPerPhase: 'human review is a node of the graph now (requirements-approval, design-approval and human-approval, each gated by `approved:`); delete it',
  capabilitiesDir: 'capability docs are the execution log\'s "Capability docs" section (node capability-docs); delete it',
  learningsDir: 'learnings are the execution log\'s "Learnings" section (node learnings); delete it',
  phaseLabelPrefix: 'issue labels are always loop:<phase>, set through github.repo; delete it',
  version: 'this file carries no version; delete it',
};

const COLLABORATORS: Readonly<Record<string, string>> = {
  handle: 'renamed login; rename the key',
  version: 'this file carries no version; delete it',
};

/** The migration note for a key of the earlier the-loop in harness-config.yaml, or undefined. */
export function harnessConfigLegacyHint(key: string): string | undefined {
  const note = Object.hasOwn(HARNESS_CONFIG, key) ? HARNESS_CONFIG[key] : undefined;
  return note === undefined ? undefined : `${FROM_EARLIER} ${note}`;
}

/** The migration note for a key of the earlier the-loop in collaborators.yaml, or undefined. */
export function collaboratorsLegacyHint(key: string): string | undefined {
  const note = Object.hasOwn(COLLABORATORS, key) ? COLLABORATORS[key] : undefined;
  return note === undefined ? undefined : `${FROM_EARLIER} ${note}`;
}
