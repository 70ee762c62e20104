import type { Diagnostic } from '../diagnostic.js';
import { defineRule, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({ id: 'internal-error', summary: 'the-loop could not evaluate the gate; it fails closed.' });

/** The parser itself failed on a file: the gate fails closed rather than assume anything about it. */
export function parserFailed(path: string, error: unknown): Diagnostic {
  return report(rule, { message: `the-loop could not parse this file: ${error instanceof Error ? error.message : String(error)}`, file: path, position: { line: 1, column: 1 } });
}

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  return {
    // Fifty thousand nested strong spans run the parser out of stack, whatever the engine's stack size.
    notOk: [{ title: 'a word inside 100,000 asterisks on each side', files: { 'requirements.md': `${'*'.repeat(100_000)}deep${'*'.repeat(100_000)}\n` }, findings: ['requirements.md:1:1'] }],
    ok: [{ title: 'a word inside three asterisks on each side', files: { 'requirements.md': '***deep***\n' } }],
  };
}
