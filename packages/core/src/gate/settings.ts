import type { RuleLevels } from '../config/rule-levels.js';
import { DEFAULT_REVIEW_CYCLES, type ReviewCycleSettings } from '../execution-log/review-cycles.js';

/** What the configuration says about how gates read and report: rule levels and the review table. */
export interface GateSettings {
  /** `rules:` — levels by rule id. */
  readonly rules: RuleLevels;
  /** `reviews.cyclesSection` and `reviews.outcomes`. */
  readonly reviewCycles: ReviewCycleSettings;
}

/** The settings of a repository that configures none. */
export const DEFAULT_GATE_SETTINGS: GateSettings = { rules: {}, reviewCycles: DEFAULT_REVIEW_CYCLES };
