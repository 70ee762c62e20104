import type { Artifact } from '../artifact/types.js';
import type { Diagnostic } from '../diagnostic.js';
import { defineRule, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({ id: 'artifact-empty', summary: 'An artifact is empty.' });

/** An artifact that holds only whitespace is not a produced artifact. */
export function emptyArtifact(name: string, artifact: Artifact): Diagnostic | undefined {
  if (!artifact.empty) return undefined;
  return report(rule, { message: `${name} is empty.`, file: artifact.path, position: { line: 1, column: 1 }, fix: `Write ${name}, or delete it until its node is reached.` });
}

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  return {
    notOk: [{ title: 'a whitespace-only requirements.md', files: { 'requirements.md': ' \n\n' }, findings: ['requirements.md:1:1'] }],
    ok: [{ title: 'a requirements.md with a heading', files: { 'requirements.md': '# Requirements\n' } }],
  };
}
