import type { Diagnostic } from '../diagnostic.js';
import { emptyGraphState, serializeGraphState } from '../graph-state/graph-state.js';
import type { SourceIssue } from '../yaml/yaml-source.js';
import { defineRule, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({ id: 'graph-state-invalid', summary: 'The recorded graph state cannot be read or does not fit the graph.' });

/** A graph-state.json that cannot be read or does not match its schema: the gate fails closed, the file is never reset. */
export function graphStateUnusable(file: string, issues: readonly SourceIssue[]): Diagnostic {
  const first = issues[0];
  return report(rule, {
    message: `The graph state cannot be used: ${issues.map((i) => i.message).join('; ')}.`,
    file,
    position: { line: first?.line ?? 1, column: first?.column ?? 1 },
    fix: 'Restore graph-state.json from version control; it is never reset silently.',
  });
}

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  return {
    notOk: [
      { title: 'a graph-state.json cut off mid-way', files: { 'bugfix.md': '# Bug\n' }, graphState: '{\n  "schemaVersion": 1,\n', findings: ['graph-state.json:3:1'] },
      { title: 'a key the schema does not know', files: { 'bugfix.md': '# Bug\n' }, graphState: serializeGraphState(emptyGraphState('w')).replace('"parked"', '"sneaky": 1,\n  "parked"'), findings: ['graph-state.json:6:13'] },
    ],
    ok: [{ title: 'the state as `the-loop graph` writes it', files: { 'bugfix.md': '# Bug\n' }, graphState: serializeGraphState(emptyGraphState('w')) }],
  };
}
