import * as v from 'valibot';
import { isPlaceholderText } from '../artifact/content.js';
import { artifactOf } from '../artifact/parse-artifact.js';
import type { Artifact } from '../artifact/types.js';
import type { ArtifactSource } from '../gate/inputs.js';
import type { Diagnostic, Position } from '../diagnostic.js';
import { verificationPlanInvalid } from '../rules/front-matter-invalid.js';
import { dottedPath, schemaIssues } from '../yaml/schema-issues.js';
import { parseYamlSource } from '../yaml/yaml-source.js';
import { CHECK_ID, CheckSchema, CRITERION_ID, checkDeclaration, duplicateIds, type CheckDeclaration, type VerificationConfig } from './config.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

/** The artifact a work item narrows or adds to the declared checks in. */
export const TESTING_PLAN = 'testing-plan.md';

/** A check that applies to one work item, and where it was declared. */
export interface PlannedCheck extends CheckDeclaration {
  readonly source: 'config' | typeof TESTING_PLAN;
}

/** Something the testing plan set aside, with the reason it gives and where. */
export interface SetAside {
  readonly id: string;
  readonly reason: string;
  readonly file: string;
  readonly position: Position;
}

/** What proves one work item: the declared checks as its testing plan narrows and adds to them. */
export interface VerificationPlan {
  readonly checks: readonly PlannedCheck[];
  /** Declared checks the testing plan skips for this work item. */
  readonly skipped: readonly SetAside[];
  /** Criteria the testing plan marks not applicable. */
  readonly notApplicable: readonly SetAside[];
  /** Why the testing plan's block cannot be used; when there are any, the plan changes nothing. */
  readonly problems: readonly Diagnostic[];
}

// Built on first use: most runs validate none of these (see builtOnFirstUse).
const schemas = builtOnFirstUse(() => {
  const reason = v.pipe(
    v.string('must be a sentence saying why'),
    v.trim(),
    v.check((text) => !isPlaceholderText(text), 'must say why (a placeholder is not a reason)'),
  );
  const UseSchema = v.strictObject({
    use: v.pipe(v.string(), v.regex(CHECK_ID, 'must name a declared check')),
    covers: v.optional(v.array(v.pipe(v.string(), v.regex(CRITERION_ID, 'must be a criterion id such as AC1, AC-2 or FR-001')))),
  });
  const PlanSchema = v.strictObject({
    checks: v.optional(v.array(v.unknown())),
    skip: v.optional(v.record(v.pipe(v.string(), v.regex(CHECK_ID, 'must be a check id')), reason)),
    notApplicable: v.optional(v.record(v.pipe(v.string(), v.regex(CRITERION_ID, 'must be a criterion id such as AC1')), reason)),
  });
  return { UseSchema, PlanSchema };
});

const UseSchema = builtOnFirstUse(() => schemas.UseSchema);

const PlanSchema = builtOnFirstUse(() => schemas.PlanSchema);

/**
 * The checks that apply to a work item. Every declared check applies, proving what it
 * `covers`, unless the testing plan's front-matter `verification:` block says otherwise:
 * `checks: [{use: ID, covers: [...]}]` sets what a declared check proves for this item,
 * `checks: [{id, argv, …}]` adds a check, `skip: {ID: reason}` narrows, and
 * `notApplicable: {AC4: reason}` sets a criterion aside. A block with any problem changes
 * nothing and its problems are findings.
 */
export function planChecks(config: VerificationConfig, testingPlan: Artifact | undefined): VerificationPlan {
  const declared: PlannedCheck[] = config.checks.map((check) => ({ ...check, source: 'config' }));
  const unchanged: VerificationPlan = { checks: declared, skipped: [], notApplicable: [], problems: [] };
  const block = testingPlan?.frontMatter?.data['verification'];
  if (!testingPlan?.frontMatter || block === undefined || block === null) return unchanged;
  const fm = testingPlan.frontMatter;
  const parsed = parseYamlSource(testingPlan.path, fm.yaml);
  const at = (path: readonly PropertyKey[]): Position => {
    const place = parsed.ok ? parsed.source.positionOf(['verification', ...path]) : { line: 1, column: 1 };
    return { line: place.line + fm.firstLine - 1, column: place.column };
  };
  const problems: Diagnostic[] = [];
  const problem = (path: readonly PropertyKey[], message: string) => problems.push(verificationPlanInvalid(testingPlan.path, message, at(path)));
  const schemaProblems = (schema: v.GenericSchema, issues: readonly v.BaseIssue<unknown>[], base: readonly PropertyKey[]) => {
    for (const issue of schemaIssues(schema, issues, (path, message) => ({ file: testingPlan.path, ...at(path), message }), { base, describe: (path) => dottedPath(['verification', ...path]) })) {
      problems.push(verificationPlanInvalid(testingPlan.path, issue.message, issue));
    }
  };

  const plan = v.safeParse(PlanSchema, block, { abortEarly: false, abortPipeEarly: true });
  if (!plan.success) {
    schemaProblems(PlanSchema, plan.issues, []);
    return { ...unchanged, problems };
  }
  const byId = new Map(declared.map((check) => [check.id, check]));
  const covers = new Map<string, readonly string[]>();
  const added: PlannedCheck[] = [];
  (plan.output.checks ?? []).forEach((entry, index) => {
    if (entry !== null && typeof entry === 'object' && 'use' in entry) {
      const use = v.safeParse(UseSchema, entry, { abortEarly: false, abortPipeEarly: true });
      if (!use.success) schemaProblems(UseSchema, use.issues, ['checks', index]);
      else if (!byId.has(use.output.use)) problem(['checks', index, 'use'], `"${use.output.use}" is not a check declared in the configuration (declared: ${[...byId.keys()].join(', ') || 'none'})`);
      else if (use.output.covers) covers.set(use.output.use, use.output.covers);
      return;
    }
    const check = v.safeParse(CheckSchema, entry, { abortEarly: false, abortPipeEarly: true });
    if (!check.success) {
      schemaProblems(CheckSchema, check.issues, ['checks', index]);
      return;
    }
    if (byId.has(check.output.id)) problem(['checks', index, 'id'], `"${check.output.id}" is already declared in the configuration; write {use: ${check.output.id}} to set what it covers`);
    else added.push({ ...checkDeclaration(check.output), source: TESTING_PLAN });
  });
  for (const index of duplicateIds(added.map((c) => c.id))) problem(['checks'], `"${added[index]!.id}" is added twice`);
  const skip = plan.output.skip ?? {};
  for (const id of Object.keys(skip)) if (!byId.has(id)) problem(['skip', id], `skips "${id}", which is not a declared check`);
  if (problems.length > 0) return { ...unchanged, problems };

  const aside = (kind: 'skip' | 'notApplicable', entries: Record<string, string>): SetAside[] =>
    Object.entries(entries).map(([id, why]) => ({ id, reason: why, file: testingPlan.path, position: at([kind, id]) }));
  return {
    checks: [...declared.filter((check) => !(check.id in skip)).map((check) => ({ ...check, covers: covers.get(check.id) ?? check.covers })), ...added],
    skipped: aside('skip', skip),
    notApplicable: aside('notApplicable', plan.output.notApplicable ?? {}),
    problems: [],
  };
}

/** The plan of a work item from its files as the CLI reads them (testing-plan.md parsed when present and readable). */
export function planFromFiles(config: VerificationConfig, files: ReadonlyMap<string, ArtifactSource>, dir: string): VerificationPlan {
  const source = files.get(TESTING_PLAN);
  return planChecks(config, source && 'text' in source ? artifactOf(`${dir}/${TESTING_PLAN}`, source) : undefined);
}
