import * as v from 'valibot';
import { atSource, schemaIssues } from '../yaml/schema-issues.js';
import type { SourceIssue, YamlSource } from '../yaml/yaml-source.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

/** A check id: lower-case letters, digits and hyphens; it names the evidence file. */
export const CHECK_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** An acceptance criterion id: `AC1`, `AC-2`, `AC1.3`, or a prefixed number such as `FR-001`. */
export const CRITERION_ID = /^(?:AC-?\d+(?:\.\d+)*|[A-Z]{2,5}-\d+(?:\.\d+)*)$/;

export const DEFAULT_CHECK_TIMEOUT_SECONDS = 600;

/**
 * Files at the project root whose digests join the environment fingerprint when present: the
 * lockfiles and version pins that fix which tool versions a check runs with.
 */
export const DEFAULT_ENVIRONMENT_FILES: readonly string[] = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'bun.lockb',
  'deno.lock',
  'Cargo.lock',
  'go.sum',
  'poetry.lock',
  'uv.lock',
  'Pipfile.lock',
  'Gemfile.lock',
  'composer.lock',
  '.nvmrc',
  '.node-version',
  '.tool-versions',
  '.python-version',
  'rust-toolchain',
  'rust-toolchain.toml',
];

// Built on first use: most runs validate none of these (see builtOnFirstUse).
const schemas = builtOnFirstUse(() => {
  const checkId = v.pipe(v.string(), v.regex(CHECK_ID, 'must be lower-case letters, digits and hyphens (at most 64)'));
  const criterionId = v.pipe(v.string(), v.regex(CRITERION_ID, 'must be a criterion id such as AC1, AC-2 or FR-001'));

  const CheckSchema = v.strictObject({
    id: checkId,
    argv: v.pipe(
      v.array(v.pipe(v.string('each argv element must be a string'), v.minLength(1, 'an argv element must not be empty')), 'must be a list such as [pnpm, test], never a shell line'),
      v.minLength(1, 'must name a program'),
      v.check((argv) => !/\s/.test(argv[0] ?? ''), 'its first element contains whitespace: argv is a list ([pnpm, test]), never a shell line'),
    ),
    timeoutSeconds: v.optional(v.pipe(v.number(), v.finite('must be a finite number'), v.minValue(1, 'must be at least 1'), v.maxValue(86_400, 'must be at most 86400 (a day)'))),
    expectExitCode: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255))),
    covers: v.optional(v.array(criterionId)),
    paths: v.optional(
      v.pipe(
        v.array(relative('a path glob')),
        v.minLength(1, 'must list at least one glob (leave paths out to depend on every file)'),
        v.check((globs) => globs.some((g) => !g.startsWith('!')), 'must include something: a list of only "!" exclusions matches nothing'),
      ),
    ),
  });

  const VerificationSchema = v.strictObject({
    checks: v.optional(v.array(CheckSchema)),
    environmentFiles: v.optional(v.array(relative('an environment file'))),
  });
  return { CheckSchema, VerificationSchema };
});

/** One declared check as `verification.checks[]` and a testing plan's added checks write it. */
export const CheckSchema = builtOnFirstUse(() => schemas.CheckSchema);

/** `verification:` in `.the-loop/harness-config.yaml`. */
export const VerificationSchema = builtOnFirstUse(() => schemas.VerificationSchema, { expects: 'Object' });
const relative = (what: string) =>
  v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.check((p) => !p.replace(/^!/, '').startsWith('/') && !/^!?[A-Za-z]:/.test(p), `${what} must be relative to the project root`),
    v.check((p) => !p.split(/[\\/]/).includes('..'), `${what} must stay inside the project (no "..")`),
  );

/** A check with its defaults applied. */
export interface CheckDeclaration {
  readonly id: string;
  readonly argv: readonly string[];
  readonly timeoutSeconds: number;
  readonly expectExitCode: number;
  /** The acceptance criteria a passing run proves. */
  readonly covers: readonly string[];
  /** Globs (`!` excludes) of the files a run depends on; undefined: every file git does not ignore outside the spec root. */
  readonly paths: readonly string[] | undefined;
}

export interface VerificationConfig {
  readonly checks: readonly CheckDeclaration[];
  readonly environmentFiles: readonly string[];
}

export type VerificationResult = { ok: true; verification: VerificationConfig } | { ok: false; issues: SourceIssue[] };

/** Verification settings when the configuration declares none: no checks, so nothing is proven. */
export function defaultVerification(): VerificationConfig {
  return { checks: [], environmentFiles: DEFAULT_ENVIRONMENT_FILES };
}

/** A parsed check with its defaults. */
export function checkDeclaration(check: v.InferOutput<typeof CheckSchema>): CheckDeclaration {
  return {
    id: check.id,
    argv: check.argv,
    timeoutSeconds: check.timeoutSeconds ?? DEFAULT_CHECK_TIMEOUT_SECONDS,
    expectExitCode: check.expectExitCode ?? 0,
    covers: check.covers ?? [],
    paths: check.paths,
  };
}

/** Read `verification` from a parsed configuration file; every problem is reported with its line. */
export function parseVerificationConfig(source: YamlSource | undefined): VerificationResult {
  const root = source?.value;
  if (!source || root === null || typeof root !== 'object' || Array.isArray(root)) return { ok: true, verification: defaultVerification() };
  const value = (root as Record<string, unknown>)['verification'];
  if (value === undefined || value === null) return { ok: true, verification: defaultVerification() };
  const parsed = v.safeParse(VerificationSchema, value, { abortEarly: false, abortPipeEarly: true });
  if (!parsed.success) return { ok: false, issues: schemaIssues(VerificationSchema, parsed.issues, atSource(source), { base: ['verification'] }) };
  const checks = (parsed.output.checks ?? []).map(checkDeclaration);
  const duplicates = duplicateIds(checks.map((c) => c.id)).map((index) => ({
    file: source.file,
    ...source.positionOf(['verification', 'checks', index, 'id']),
    message: `verification.checks[${index}].id: "${checks[index]!.id}" is declared twice; check ids name evidence files and must be unique`,
  }));
  if (duplicates.length > 0) return { ok: false, issues: duplicates };
  return { ok: true, verification: { checks, environmentFiles: parsed.output.environmentFiles ?? DEFAULT_ENVIRONMENT_FILES } };
}

/** The indexes of ids that repeat an earlier one. */
export function duplicateIds(ids: readonly string[]): number[] {
  const seen = new Set<string>();
  return ids.flatMap((id, index) => {
    if (seen.has(id)) return [index];
    seen.add(id);
    return [];
  });
}
