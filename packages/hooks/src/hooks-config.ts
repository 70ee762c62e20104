import * as v from 'valibot';
import { HooksConfigSchema, type HooksConfig, type SourceIssue, type YamlSource } from '@the-loop/core';

export type { HooksConfig };

export const DEFAULT_HOOKS_CONFIG: HooksConfig = v.parse(HooksConfigSchema, {});

/** Read the `hooks` section; an unknown key or a bad value is an error with its line, never a silent default. */
export function parseHooksConfig(source: YamlSource | undefined): { ok: true; config: HooksConfig } | { ok: false; issues: SourceIssue[] } {
  const root = source?.value;
  const section = root && typeof root === 'object' && !Array.isArray(root) ? (root as Record<string, unknown>)['hooks'] : undefined;
  if (section === undefined || section === null || !source) return { ok: true, config: DEFAULT_HOOKS_CONFIG };
  const result = v.safeParse(HooksConfigSchema, section, { abortEarly: false });
  if (result.success) return { ok: true, config: result.output };
  return {
    ok: false,
    issues: result.issues.map((issue) => {
      const path = ['hooks', ...(issue.path ?? []).map((p) => p.key as PropertyKey)];
      const key = String(path[path.length - 1]);
      const message =
        issue.kind === 'schema' && issue.expected === 'never'
          ? `unknown key "${key}" in hooks (known: ${Object.keys(HooksConfigSchema.entries).join(', ')})`
          : path.length === 1
            ? 'hooks must be a mapping'
            : `${issue.message}; got ${JSON.stringify(issue.input)}`;
      return { file: source.file, ...source.positionOf(path), message };
    }),
  };
}
