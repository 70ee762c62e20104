import type * as v from 'valibot';

/** Why a structured answer does not match its shape, in words: the first three problems, each at its path. */
export function answerProblem(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path?.map((p) => String(p.key)) ?? [];
      const where = path.join('.');
      if (issue.kind === 'schema' && issue.expected === 'never') return `unknown key "${where}"`;
      if (issue.received === 'undefined' && path.length > 0) return `missing "${where}"`;
      return `${where ? `${where}: ` : ''}${issue.message}`;
    })
    .join('; ');
}
