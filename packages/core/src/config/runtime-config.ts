import * as v from 'valibot';
import { atSource, schemaIssues } from '../yaml/schema-issues.js';
import type { SourceIssue, YamlSource } from '../yaml/yaml-source.js';

const repoName = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must be "owner/name"'));
const argv = v.pipe(
  v.array(v.pipe(v.string(), v.minLength(1))),
  v.minLength(1, 'name at least the program'),
  v.check((list) => !/\s/.test(list[0] ?? ''), 'the first element is the program, never a shell line: put its arguments in the following elements'),
);
const httpUrl = v.pipe(v.string(), v.url('must be a URL'), v.check((u) => /^https?:\/\//.test(u), 'must be an http(s) URL'));

/** `github:` — where lifecycle labels are set. */
export const GitHubConfigSchema = v.strictObject({
  repo: repoName,
  /** `gh` runs the GitHub CLI (argv, never a shell); `rest` calls the REST API with a token from GITHUB_TOKEN or GH_TOKEN. */
  port: v.optional(v.picklist(['gh', 'rest']), 'gh'),
  /** The REST API root; GitHub Enterprise and tests point it elsewhere. */
  apiUrl: v.optional(httpUrl, 'https://api.github.com'),
});

/** `notifications:` — how collaborators are told; either, both or neither. */
export const NotificationsConfigSchema = v.strictObject({
  /** A program given the notification as JSON on stdin. */
  command: v.optional(argv),
  /** A URL the notification is POSTed to as JSON. */
  webhook: v.optional(httpUrl),
  timeoutSeconds: v.optional(v.pipe(v.number(), v.finite(), v.minValue(1), v.maxValue(600)), 30),
});

export type GitHubConfig = v.InferOutput<typeof GitHubConfigSchema>;
export type NotificationsConfig = v.InferOutput<typeof NotificationsConfigSchema>;

export interface RuntimeConfig {
  readonly github: GitHubConfig | undefined;
  readonly notifications: NotificationsConfig | undefined;
}

export type RuntimeConfigResult = { ok: true; config: RuntimeConfig } | { ok: false; issues: SourceIssue[] };

/** Read `github` and `notifications` from the harness configuration; absent keys mean "not configured". */
export function parseRuntimeConfig(source: YamlSource | undefined): RuntimeConfigResult {
  const root = source?.value;
  if (!source || root === null || typeof root !== 'object' || Array.isArray(root)) return { ok: true, config: { github: undefined, notifications: undefined } };
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
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, config: { github, notifications } };
}

/** The issue number a work item id names (`issue-123` → 123), or undefined. */
export function issueNumberOf(workItem: string): number | undefined {
  const match = /^issue-(\d+)$/.exec(workItem);
  return match ? Number(match[1]) : undefined;
}
