import * as v from 'valibot';
import { RULE_IDS, type Diagnostic, type RuleId } from '../diagnostic.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

/** How loudly a rule reports, as ESLint spells it: `error` blocks, `warn` informs, `off` never reports. */
export type RuleLevel = 'error' | 'warn' | 'off';

/** Rule levels by rule id, from `rules:` in the configuration; a rule not listed keeps its own severity. */
export type RuleLevels = Readonly<Partial<Record<RuleId, RuleLevel>>>;

/**
 * Rules that are how the gate fails closed: a file that cannot be read, a parser failure,
 * unusable graph state, an evidence record that cannot be believed. Turning one off would turn
 * a failure into a pass, so they cannot be configured (nor baselined).
 */
export const FIXED_RULES: ReadonlySet<RuleId> = new Set<RuleId>(['artifact-unreadable', 'graph-state-invalid', 'internal-error', 'evidence-invalid']);

/** `rules:` — a level for each configurable rule. */
export const RulesSchema = builtOnFirstUse(() => {
  const level = v.picklist(['error', 'warn', 'off'], 'must be error, warn or off');
  return v.pipe(
    v.strictObject(Object.fromEntries(RULE_IDS.filter((id) => !FIXED_RULES.has(id)).map((id) => [id, v.optional(level)])) as Record<Exclude<RuleId, never>, v.OptionalSchema<typeof level, undefined>>),
    v.description('Rule severities, as ESLint spells them: error blocks a gate, warn reports without blocking, off never reports.'),
  );
}, { expects: 'Object' });

/** Why an unknown key under `rules:` is wrong, when it is a rule that cannot be configured. */
export function fixedRuleHint(key: string): string | undefined {
  return FIXED_RULES.has(key as RuleId) ? ` (${key} cannot be configured: it is how the gate fails closed)` : undefined;
}

/** Findings at their configured levels: `off` removes a rule's findings, `warn` and `error` set their severity. */
export function applyRuleLevels(findings: readonly Diagnostic[], levels: RuleLevels): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const finding of findings) {
    const configured = FIXED_RULES.has(finding.ruleId) ? undefined : levels[finding.ruleId];
    if (configured === 'off') continue;
    out.push(configured === undefined ? finding : { ...finding, severity: configured === 'warn' ? 'warning' : 'error' });
  }
  return out;
}
