// The rule registry: every rule the-loop reports, one module each, in RULE_IDS order.
import type { RuleId } from '../diagnostic.js';
import { rule as approvalIgnored } from './approval-ignored.js';
import { rule as approvalMissing } from './approval-missing.js';
import { rule as approvalStale } from './approval-stale.js';
import { rule as artifactAmbiguous } from './artifact-ambiguous.js';
import { rule as artifactEmpty } from './artifact-empty.js';
import { rule as artifactMissing } from './artifact-missing.js';
import { rule as artifactUnlocked } from './artifact-unlocked.js';
import { rule as artifactUnreadable } from './artifact-unreadable.js';
import { rule as baselineGrown } from './baseline-grown.js';
import { rule as boundaryUnaddressed } from './boundary-unaddressed.js';
import { rule as criterionAmbiguous } from './criterion-ambiguous.js';
import { rule as evidenceFailing } from './evidence-failing.js';
import { rule as evidenceInvalid } from './evidence-invalid.js';
import { rule as evidenceMissing } from './evidence-missing.js';
import { rule as evidenceStale } from './evidence-stale.js';
import { rule as frontMatterInvalid } from './front-matter-invalid.js';
import { rule as graphStateInvalid } from './graph-state-invalid.js';
import { rule as internalError } from './internal-error.js';
import { rule as optionalTaskOpen } from './optional-task-open.js';
import { rule as phaseAheadOfArtifacts } from './phase-ahead-of-artifacts.js';
import { rule as phaseMismatch } from './phase-mismatch.js';
import { rule as reviewRoundsMissing } from './review-rounds-missing.js';
import { rule as sectionEmpty } from './section-empty.js';
import { rule as sectionMissing } from './section-missing.js';
import { rule as tasksIncomplete } from './tasks-incomplete.js';
import { rule as templateResidue } from './template-residue.js';
import type { Rule } from './rule.js';

/** Every rule, in RULE_IDS order (SARIF's `rules[]` and its indexes follow it). */
export const RULES: readonly Rule[] = [
  artifactMissing,
  artifactAmbiguous,
  artifactUnlocked,
  artifactEmpty,
  artifactUnreadable,
  frontMatterInvalid,
  sectionMissing,
  sectionEmpty,
  tasksIncomplete,
  boundaryUnaddressed,
  reviewRoundsMissing,
  phaseMismatch,
  phaseAheadOfArtifacts,
  templateResidue,
  approvalMissing,
  approvalStale,
  approvalIgnored,
  graphStateInvalid,
  internalError,
  evidenceMissing,
  evidenceFailing,
  evidenceStale,
  evidenceInvalid,
  criterionAmbiguous,
  baselineGrown,
  optionalTaskOpen,
];

/** The rule with this id. */
export function ruleById(id: RuleId): Rule {
  const found = RULES.find((rule) => rule.id === id);
  if (!found) throw new Error(`rule "${id}" has no module in the registry`);
  return found;
}
