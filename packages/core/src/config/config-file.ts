import * as v from 'valibot';
import { atSource, schemaIssues } from '../yaml/schema-issues.js';
import type { SourceIssue, YamlSource } from '../yaml/yaml-source.js';
import { ConfigSectionSchemas } from './json-schema.js';
import { harnessConfigLegacyHint } from './legacy-keys.js';
import { fixedRuleHint } from './rule-levels.js';
import { WorkflowSchema } from './workflow-schema.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

// The published schema with `workflow.graph` left to the graph compiler, whose messages name nodes.
const CheckedFileSchema = builtOnFirstUse(() => v.strictObject({ workflow: v.optional(WorkflowSchema), ...ConfigSectionSchemas }));

/**
 * Every problem of `.the-loop/harness-config.yaml` outside the graph, at once: unknown keys in
 * any section (a key of the earlier the-loop with its migration, a key written at the top that
 * belongs in a section with where it goes), and every value of the wrong shape. A critic entry's
 * own value problems are left to the entry (they break that critic only); its unknown keys are not.
 */
export function configFileIssues(source: YamlSource): SourceIssue[] {
  // An empty section (`reviews:` with nothing under it) is no section.
  const sections = Object.fromEntries(Object.entries(source.value as Record<string, unknown>).filter(([, value]) => value !== null));
  const result = v.safeParse(CheckedFileSchema, sections, { abortEarly: false, abortPipeEarly: true });
  if (result.success) return [];
  const kept = result.issues.filter((issue) => !isCriticEntryValue(issue));
  const hint = (key: string, path: readonly PropertyKey[]) =>
    path.length === 2 && path[0] === 'rules' ? fixedRuleHint(key) : (harnessConfigLegacyHint(key) ?? (path.length === 1 ? sectionOf(key) : undefined));
  return schemaIssues(CheckedFileSchema, kept, atSource(source), { hint });
}

function isCriticEntryValue(issue: v.BaseIssue<unknown>): boolean {
  const path = (issue.path ?? []).map((item) => item.key);
  return path[0] === 'reviews' && path[1] === 'critics' && typeof path[2] === 'number' && !(issue.kind === 'schema' && issue.expected === 'never');
}

// ` (it belongs under workflow:)` for a section's key written at the top of the file.
function sectionOf(key: string): string | undefined {
  for (const [section, schema] of Object.entries(CheckedFileSchema.entries)) {
    if (key in entriesOf(schema)) return ` (it belongs under ${section}:)`;
  }
  return undefined;
}

function entriesOf(schema: unknown): Record<string, unknown> {
  let node = schema as { entries?: Record<string, unknown>; wrapped?: unknown; pipe?: unknown[] };
  while (node.wrapped !== undefined) node = node.wrapped as typeof node;
  return node.entries ?? {};
}
