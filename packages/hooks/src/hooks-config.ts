import * as v from 'valibot';
import { atSource, HooksConfigSchema, schemaIssues, type HooksConfig, type SourceIssue, type YamlSource } from '@the-loop/core';

export type { HooksConfig };

export const DEFAULT_HOOKS_CONFIG: HooksConfig = v.parse(HooksConfigSchema, {});

/** Read the `hooks` section; an unknown key or a bad value is an error with its line, never a silent default. */
export function parseHooksConfig(source: YamlSource | undefined): { ok: true; config: HooksConfig } | { ok: false; issues: SourceIssue[] } {
  const root = source?.value;
  const section = root && typeof root === 'object' && !Array.isArray(root) ? (root as Record<string, unknown>)['hooks'] : undefined;
  if (section === undefined || section === null || !source) return { ok: true, config: DEFAULT_HOOKS_CONFIG };
  const result = v.safeParse(HooksConfigSchema, section, { abortEarly: false });
  if (result.success) return { ok: true, config: result.output };
  return { ok: false, issues: schemaIssues(HooksConfigSchema, result.issues, atSource(source), { base: ['hooks'] }) };
}
