import type { GatePredicate } from './types.js';

/** A gate predicate in words, for an agent's assignment and a hook's context. */
export function describePredicate(predicate: GatePredicate): string {
  if ('locked' in predicate) return 'front-matter `status: approved`';
  if ('frontMatter' in predicate) {
    return `front-matter ${Object.entries(predicate.frontMatter)
      .map(([key, value]) => `\`${key}: ${String(value)}\``)
      .join(', ')}`;
  }
  if ('sections' in predicate) return `non-empty sections ${predicate.sections.map((s) => `"${s}"`).join(', ')}`;
  if ('tasksComplete' in predicate) return 'every task ticked';
  if ('boundariesFrom' in predicate) {
    const { artifact, section } = predicate.boundariesFrom;
    return `every trust boundary named under "${section}" in ${artifact} addressed`;
  }
  if ('reviewRounds' in predicate) {
    const { type, min } = predicate.reviewRounds;
    return `at least ${min} ${type} review round${min === 1 ? '' : 's'} that ran, in the execution log's Review cycles table`;
  }
  return `an approver's recorded approval of ${predicate.approved} (\`the-loop graph approve\`)`;
}
