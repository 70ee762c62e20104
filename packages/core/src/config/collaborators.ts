import * as v from 'valibot';
import { atSource, schemaIssues } from '../yaml/schema-issues.js';
import { parseYamlSource, type KnownYamlValue, type SourceIssue, type YamlSource } from '../yaml/yaml-source.js';
import { collaboratorsLegacyHint } from './legacy-keys.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

/** Where the people of a repository and their roles are listed. */
export const COLLABORATORS_FILE = '.the-loop/collaborators.yaml';

/** The role whose holders may approve an artifact with `the-loop graph approve`. */
export const APPROVER_ROLE = 'approver';

export const CollaboratorsSchema = builtOnFirstUse(() => {
  const login = v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9-_.]*$/, 'must be a login (letters, digits, "-", "_", ".")'));
  const role = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]*$/, 'must be a lower-case role name'));
  return v.strictObject({
    collaborators: v.array(v.strictObject({ login, roles: v.pipe(v.array(role), v.minLength(1, 'list at least one role')) })),
  });
});

export interface Collaborator {
  readonly login: string;
  readonly roles: readonly string[];
}

/** On success, `source` is the parsed file: a caller may keep its value for the same text. */
export type CollaboratorsResult = { ok: true; collaborators: readonly Collaborator[]; source: YamlSource } | { ok: false; issues: SourceIssue[] };

/**
 * Parse `.the-loop/collaborators.yaml`; every problem is reported with its line. `known`: the
 * value an earlier parse of this very text found (see {@link parseYamlSource}).
 */
export function parseCollaborators(file: string, text: string, known?: KnownYamlValue): CollaboratorsResult {
  const parsed = parseYamlSource(file, text, known);
  if (!parsed.ok) return parsed;
  const { source } = parsed;
  const result = v.safeParse(CollaboratorsSchema, source.value ?? {}, { abortEarly: false });
  if (!result.success) {
    const hint = (key: string) => collaboratorsLegacyHint(key);
    return { ok: false, issues: schemaIssues(CollaboratorsSchema, result.issues, atSource(source), { hint }).sort((a, b) => a.line - b.line || a.column - b.column) };
  }
  const seen = new Map<string, number>();
  const issues: SourceIssue[] = [];
  result.output.collaborators.forEach((c, index) => {
    const key = c.login.toLowerCase();
    if (seen.has(key)) issues.push({ file, ...source.positionOf(['collaborators', index, 'login']), message: `collaborator "${c.login}" is listed twice` });
    seen.set(key, index);
  });
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, collaborators: result.output.collaborators, source };
}

/** Logins holding a role. */
export function loginsWithRole(collaborators: readonly Collaborator[], wanted: string): string[] {
  return collaborators.filter((c) => c.roles.includes(wanted)).map((c) => c.login);
}
