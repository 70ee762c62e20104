import type { Diagnostic, Position } from '../diagnostic.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({ id: 'template-residue', summary: "Template text was pasted through untouched, or a template's prompt was never replaced." });

/**
 * A template's prompts still in the file (`<what is wrong today>`, `[NEEDS CLARIFICATION: …]`),
 * one finding per line: the author was meant to replace each with what it asks for.
 */
export function leftPlaceholders(path: string, lines: readonly { line: number; column: number; prompts: readonly string[] }[]): Diagnostic[] {
  return lines.map(({ line, column, prompts }) => {
    const quoted = prompts.map((p) => `"${p}"`).join(', ');
    const clarify = prompts.every((p) => p.startsWith('[NEEDS CLARIFICATION'));
    return report(rule, {
      message: clarify
        ? `An open question was never answered: ${quoted}.`
        : `The template's placeholder${prompts.length === 1 ? '' : 's'} ${quoted} ${prompts.length === 1 ? 'is' : 'are'} still here.`,
      file: path,
      position: { line, column },
      actual: prompts.join(' '),
      fix: clarify ? 'Answer the question in the text and delete the marker.' : `Replace ${prompts.length === 1 ? 'it' : 'each'} with what ${prompts.length === 1 ? 'it asks' : 'they ask'} for.`,
    });
  });
}

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
    notOk: [
      { title: "the template's phase choices pasted after the value", graph: GRAPH, files: { 'execution-log.md': '---\nphase: work   # not-started | work\n---\n# Log\n' }, findings: ['execution-log.md:2:8'] },
      {
        title: "a template's prompts left in text, a list and a tag-like phrase; spec-kit's open question",
        graph: GRAPH,
        files: { 'execution-log.md': '# Log\n\nDone by <who did it>.\n\n- **<boundary name>**: <what could go wrong>\n\n<describe the rollout>\n\nExpiry: [NEEDS CLARIFICATION: a day or a week?]\n' },
        findings: ['execution-log.md:3:9', 'execution-log.md:5:5', 'execution-log.md:7:1', 'execution-log.md:9:9'],
      },
    ],
    ok: [
      { title: 'a comment that lists no choices', graph: GRAPH, files: { 'execution-log.md': '---\nphase: work   # set by the orchestrator\n---\n# Log\n' } },
      {
        title: 'angle brackets that are not prompts: a type, a tag, code, a comment, an autolink, a one-word tag',
        graph: GRAPH,
        files: { 'execution-log.md': '# Log\n\nReturns Map<string, number>.\n\n<details open>\n<summary>More</summary>\n</details>\n\n`<not a prompt>`\n\n```\n<also not one>\n```\n\n<!-- <guidance for the author> -->\n\nSee <https://example.com/a b> and <br>.\n' },
      },
    ],
  };
}
