import type * as v from 'valibot';
import { schemaIssues } from '../yaml/schema-issues.js';

/** Why a structured answer does not match its schema, in words: its first three problems. */
export function answerProblem(schema: v.GenericSchema, issues: readonly v.BaseIssue<unknown>[]): string {
  return schemaIssues(schema, issues.slice(0, 3), (_path, message) => ({ file: '', line: 1, column: 1, message }))
    .map((issue) => issue.message)
    .join('; ');
}
