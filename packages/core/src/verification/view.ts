import type { Artifact } from '../artifact/types.js';
import { judgeCheck, judgeCriterion, type CheckEvidence, type CriterionVerdict, type CurrentState } from '../evidence/judge.js';
import type { RecordRead } from '../evidence/record.js';
import { defaultVerification, type VerificationConfig } from './config.js';
import { readCriteria, repeatedCriteria, type Criterion } from './criteria.js';
import { planChecks, TESTING_PLAN, type VerificationPlan } from './plan.js';

/** What the CLI reads for the evidence gates: the declared checks, their records, and the state now. */
export interface VerificationInput {
  readonly config: VerificationConfig;
  /** The configuration file checks are declared in, for a finding that none is. */
  readonly configFile: string;
  /** Each planned check's record, by check id; absent when there is none. */
  readonly records: ReadonlyMap<string, RecordRead>;
  readonly current: CurrentState | { readonly unavailable: string };
}

/** One work item's verification as the gates and the completion proof see it. */
export interface VerificationView {
  readonly plan: VerificationPlan;
  readonly checks: readonly CheckEvidence[];
  /** The artifact the criteria are read from (requirements.md or bugfix.md), when one can be read. */
  readonly criteriaSource: { readonly name: string; readonly artifact: Artifact } | undefined;
  readonly criteria: readonly CriterionVerdict[];
  /** Criteria whose id repeats an earlier one's. */
  readonly repeated: readonly { readonly criterion: Criterion; readonly first: Criterion }[];
  readonly configFile: string;
}

const NOT_READ = { unavailable: 'the repository state was not read' };

/**
 * Read the plan and judge every check's evidence; the criteria are read and judged when first
 * asked for (only the evidence gates and the completion proof ask, and most work items never
 * reach them). Pure.
 */
export function viewVerification(input: VerificationInput | undefined, lookup: (name: string) => { name: string; artifact: Artifact } | undefined): VerificationView {
  const plan = planChecks(input?.config ?? defaultVerification(), lookup(TESTING_PLAN)?.artifact);
  const records = input?.records ?? new Map<string, RecordRead>();
  const checks = plan.checks.map((check) => judgeCheck(check, records.get(check.id), input?.current ?? NOT_READ));
  return new View(plan, checks, lookup('requirements.md') ?? lookup('bugfix.md'), input?.configFile ?? '.the-loop/harness-config.yaml');
}

// A class, so the criteria can wait for their first reader without a hidden class per view.
class View implements VerificationView {
  private judged?: { readonly criteria: readonly CriterionVerdict[]; readonly repeated: VerificationView['repeated'] };

  constructor(
    readonly plan: VerificationPlan,
    readonly checks: readonly CheckEvidence[],
    readonly criteriaSource: VerificationView['criteriaSource'],
    readonly configFile: string,
  ) {}

  get criteria(): readonly CriterionVerdict[] {
    return this.judge().criteria;
  }

  get repeated(): VerificationView['repeated'] {
    return this.judge().repeated;
  }

  private judge(): NonNullable<View['judged']> {
    if (!this.judged) {
      const criteria = this.criteriaSource ? readCriteria(this.criteriaSource.artifact) : [];
      this.judged = { criteria: criteria.map((criterion) => judgeCriterion(criterion, this.checks, this.plan.notApplicable)), repeated: repeatedCriteria(criteria) };
    }
    return this.judged;
  }
}
