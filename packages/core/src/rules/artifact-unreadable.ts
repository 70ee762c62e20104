import type { Diagnostic } from '../diagnostic.js';
import { MAX_NESTING } from '../artifact/micromark-block.js';
import { defineRule, report, type Rule, type RuleExamples } from './rule.js';

export const rule: Rule = defineRule({ id: 'artifact-unreadable', summary: 'An artifact cannot be read (binary, not UTF-8, too large, a broken link).' });

/** A file the reader could not decode, with its reason; nothing about it is assumed. */
export function unreadableArtifact(name: string, path: string, reason: string | undefined): Diagnostic {
  return report(rule, { message: `${name} cannot be read: ${reason ?? 'not found'}.`, file: path, fix: `Replace ${name} with a UTF-8 Markdown file.` });
}

/** Lists or quotes nested past what the reader reads: the rest of that block is not read, so the gate fails closed. */
export function nestedTooDeep(path: string, line: number): Diagnostic {
  return report(rule, {
    message: `Lists or block quotes nest too deep here: the-loop reads about ${MAX_NESTING / 2} nested lists or ${MAX_NESTING} nested quotes, and nothing past that depth counts.`,
    file: path,
    position: { line, column: 1 },
    fix: 'Flatten the nesting: no spec needs lists or quotes this deep.',
  });
}

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  return {
    notOk: [{ title: 'a requirements.md that is not valid UTF-8', files: { 'requirements.md': { unreadable: 'it is not valid UTF-8' } }, findings: ['requirements.md'] }],
    ok: [{ title: 'a readable requirements.md', files: { 'requirements.md': '# Requirements\n' } }],
  };
}
