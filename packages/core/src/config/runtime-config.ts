import * as v from 'valibot';
import { atSource, schemaIssues } from '../yaml/schema-issues.js';
import type { SourceIssue, YamlSource } from '../yaml/yaml-source.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

// Built on first use: most runs validate none of these (see builtOnFirstUse).
const schemas = builtOnFirstUse(() => {
  const repoName = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must be "owner/name"'));
  const argv = v.pipe(
    v.array(v.pipe(v.string(), v.minLength(1))),
    v.minLength(1, 'name at least the program'),
    v.check((list) => !/\s/.test(list[0] ?? ''), 'the first element is the program, never a shell line: put its arguments in the following elements'),
  );
  const httpUrl = v.pipe(v.string(), v.url('must be a URL'), v.check((u) => /^https?:\/\//.test(u), 'must be an http(s) URL'));

  const GitHubConfigSchema = v.strictObject({
    repo: repoName,
    /** `gh` runs the GitHub CLI (argv, never a shell); `rest` calls the REST API with a token from GITHUB_TOKEN or GH_TOKEN. */
    port: v.optional(v.picklist(['gh', 'rest']), 'gh'),
    /** The REST API root; GitHub Enterprise and tests point it elsewhere. */
    apiUrl: v.optional(httpUrl, 'https://api.github.com'),
    /** How long one use of GitHub may take (a label change, reading a pull request's reviews); past it, the call fails closed. */
    timeoutSeconds: v.optional(v.pipe(v.number(), v.finite(), v.minValue(1), v.maxValue(600)), 30),
  });

  const NotificationsConfigSchema = v.strictObject({
    /** A program given the notification as JSON on stdin. */
    command: v.optional(argv),
    /** A URL the notification is POSTed to as JSON. */
    webhook: v.optional(httpUrl),
    timeoutSeconds: v.optional(v.pipe(v.number(), v.finite(), v.minValue(1), v.maxValue(600)), 30),
  });

  const ApprovalsConfigSchema = v.strictObject({
    /** `local`: `graph approve` records in graph-state.json; `github`: pull-request reviews GitHub authenticated. */
    source: v.optional(v.picklist(['local', 'github']), 'local'),
  });
  return { GitHubConfigSchema, NotificationsConfigSchema, ApprovalsConfigSchema };
});

/** `github:` — where lifecycle labels are set and, under `approvals.source: github`, pull-request reviews are read. */
export const GitHubConfigSchema = builtOnFirstUse(() => schemas.GitHubConfigSchema, { expects: 'Object' });

/** `notifications:` — how collaborators are told; either, both or neither. */
export const NotificationsConfigSchema = builtOnFirstUse(() => schemas.NotificationsConfigSchema, { expects: 'Object' });

/** `approvals:` — where an `approved:` predicate's approvals come from (decision 111). */
export const ApprovalsConfigSchema = builtOnFirstUse(() => schemas.ApprovalsConfigSchema, { expects: 'Object' });

export type GitHubConfig = v.InferOutput<typeof GitHubConfigSchema>;
export type ApprovalsConfig = v.InferOutput<typeof ApprovalsConfigSchema>;
export type NotificationsConfig = v.InferOutput<typeof NotificationsConfigSchema>;

export interface RuntimeConfig {
  readonly github: GitHubConfig | undefined;
  readonly notifications: NotificationsConfig | undefined;
  readonly approvals: ApprovalsConfig;
}

export type RuntimeConfigResult = { ok: true; config: RuntimeConfig } | { ok: false; issues: SourceIssue[] };

/** Read `github`, `notifications` and `approvals` from the harness configuration; absent keys mean "not configured" (approvals: local). */
export function parseRuntimeConfig(source: YamlSource | undefined): RuntimeConfigResult {
  const root = source?.value;
  if (!source || root === null || typeof root !== 'object' || Array.isArray(root)) return { ok: true, config: { github: undefined, notifications: undefined, approvals: { source: 'local' } } };
  const record = root as Record<string, unknown>;
  const issues: SourceIssue[] = [];
  const read = <S extends v.GenericSchema>(key: string, schema: S): v.InferOutput<S> | undefined => {
    if (record[key] === undefined || record[key] === null) return undefined;
    const result = v.safeParse(schema, record[key], { abortEarly: false });
    if (result.success) return result.output;
    issues.push(...schemaIssues(schema, result.issues, atSource(source), { base: [key] }));
    return undefined;
  };
  const github = read('github', GitHubConfigSchema);
  const notifications = read('notifications', NotificationsConfigSchema);
  const approvals = read('approvals', ApprovalsConfigSchema) ?? { source: 'local' as const };
  // Reviews are read from the repository `github:` names; without it there is nowhere to read them.
  if (approvals.source === 'github' && github === undefined && (record['github'] === undefined || record['github'] === null)) {
    issues.push({ file: source.file, ...source.positionOf(['approvals', 'source']), message: 'approvals.source is github, but there is no `github:` section naming the repository (github.repo: owner/name)' });
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, config: { github, notifications, approvals } };
}

/** The issue number a work item id names (`issue-123` → 123), or undefined. */
export function issueNumberOf(workItem: string): number | undefined {
  const match = /^issue-(\d+)$/.exec(workItem);
  return match ? Number(match[1]) : undefined;
}
