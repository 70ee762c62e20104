import type { SourceIssue, YamlSource } from '@the-loop/core';

/** `hooks` in `.the-loop/harness-config.yaml`: how the harness hooks behave. */
export interface HooksConfig {
  /** Consecutive Stop blocks allowed for the same findings before the stop goes through and escalates. */
  readonly noProgressCap: number;
}

export const DEFAULT_HOOKS_CONFIG: HooksConfig = { noProgressCap: 3 };

const KNOWN_KEYS = ['noProgressCap'];

/** Read the `hooks` section; an unknown key or a bad value is an error with its line, never a silent default. */
export function parseHooksConfig(source: YamlSource | undefined): { ok: true; config: HooksConfig } | { ok: false; issues: SourceIssue[] } {
  const root = source?.value;
  const section = root && typeof root === 'object' && !Array.isArray(root) ? (root as Record<string, unknown>)['hooks'] : undefined;
  if (section === undefined || section === null || !source) return { ok: true, config: DEFAULT_HOOKS_CONFIG };
  const issue = (path: PropertyKey[], message: string): SourceIssue => ({ file: source.file, ...source.positionOf(path), message });
  if (typeof section !== 'object' || Array.isArray(section)) return { ok: false, issues: [issue(['hooks'], 'hooks must be a mapping')] };
  const issues: SourceIssue[] = [];
  for (const key of Object.keys(section)) {
    if (!KNOWN_KEYS.includes(key)) issues.push(issue(['hooks', key], `unknown key "${key}" in hooks (known: ${KNOWN_KEYS.join(', ')})`));
  }
  const cap = (section as Record<string, unknown>)['noProgressCap'];
  if (cap !== undefined && !(typeof cap === 'number' && Number.isInteger(cap) && cap >= 1 && cap <= 100)) {
    issues.push(issue(['hooks', 'noProgressCap'], `hooks.noProgressCap must be a whole number from 1 to 100; got ${JSON.stringify(cap)}`));
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, config: { noProgressCap: typeof cap === 'number' ? cap : DEFAULT_HOOKS_CONFIG.noProgressCap } };
}
