import type { Diagnostic } from '../diagnostic.js';
import { emptyGraphState, serializeGraphState } from '../graph-state/graph-state.js';
import type { SourceIssue } from '../yaml/yaml-source.js';
import { defineRule, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({ id: 'graph-state-invalid', summary: 'The recorded graph state cannot be read or does not fit the graph.' });

// A schema's every complaint about a file far off it runs to pages; the first few say enough.
const ISSUES_SHOWN = 3;

/**
 * A graph-state.json that cannot be read or does not match its schema: the gate fails closed,
 * the file is never reset. A foreign or older file gets its migration as the fix.
 */
export function graphStateUnusable(file: string, issues: readonly SourceIssue[], migration?: string): Diagnostic {
  const first = issues[0];
  const shown = issues.slice(0, ISSUES_SHOWN).map((i) => (issues.length > 1 ? `line ${i.line}: ${i.message}` : i.message));
  const more = issues.length > ISSUES_SHOWN ? `; and ${issues.length - ISSUES_SHOWN} more` : '';
  return report(rule, {
    message: `The graph state cannot be used: ${shown.join('; ')}${more}.`,
    file,
    position: { line: first?.line ?? 1, column: first?.column ?? 1 },
    fix: migration ?? 'Fix the lines named, or restore graph-state.json from version control; it is never reset silently.',
  });
}

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  return {
    notOk: [
      { title: 'a graph-state.json cut off mid-way', files: { 'bugfix.md': '# Bug\n' }, graphState: '{\n  "schemaVersion": 1,\n', findings: ['graph-state.json:3:1'] },
      { title: 'a key the schema does not know', files: { 'bugfix.md': '# Bug\n' }, graphState: serializeGraphState(emptyGraphState('w')).replace('"parked"', '"sneaky": 1,\n  "parked"'), findings: ['graph-state.json:6:13'] },
      { title: "an earlier the-loop's state file: one finding at its top", files: { 'bugfix.md': '# Bug\n' }, graphState: '{\n  "work_item": "w",\n  "current_phase": "design",\n  "history": []\n}\n', findings: ['graph-state.json:1:1'] },
    ],
    ok: [{ title: 'the state as `the-loop graph` writes it', files: { 'bugfix.md': '# Bug\n' }, graphState: serializeGraphState(emptyGraphState('w')) }],
  };
}
