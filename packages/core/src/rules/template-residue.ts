import type { Diagnostic, Position } from '../diagnostic.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({ id: 'template-residue', summary: 'Template text was pasted through untouched.' });

/**
 * A front-matter value still followed by the template's list of choices as a comment
 * (`phase: needs-review # not-started | brainstorming | …`): the step was done by copying text,
 * and a text search and a YAML parser disagree on what the file says.
 */
export function pastedTemplateChoices(path: string, key: string, value: unknown, comment: string | null | undefined, position: Position | undefined): Diagnostic[] {
  if (typeof comment !== 'string' || !comment.includes('|')) return [];
  return [
    report(rule, {
      message: `\`${key}:\` still carries the template's list of choices as a comment ("#${comment}").`,
      file: path,
      position,
      actual: `${key}: ${String(value)}  #${comment}`,
      expected: `${key}: ${String(value)}`,
      fix: `Set \`${key}\` by a real transition and delete the pasted template comment.`,
    }),
  ];
}

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const GRAPH = oneNodeGraph('produces: execution-log.md');

  return {
    notOk: [{ title: "the template's phase choices pasted after the value", graph: GRAPH, files: { 'execution-log.md': '---\nphase: work   # not-started | work\n---\n# Log\n' }, findings: ['execution-log.md:2:8'] }],
    ok: [{ title: 'a comment that lists no choices', graph: GRAPH, files: { 'execution-log.md': '---\nphase: work   # set by the orchestrator\n---\n# Log\n' } }],
  };
}
