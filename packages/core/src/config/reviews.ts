import * as v from 'valibot';
import { atSource, schemaIssues } from '../yaml/schema-issues.js';
import type { SourceIssue, YamlSource } from '../yaml/yaml-source.js';
import { CriticEntrySchema, ReviewSettingsSchema } from './reviews-schema.js';

/** A valid critic entry with its defaults applied. */
export interface CriticEntry {
  readonly name: string;
  readonly harness: string | undefined;
  readonly model: string | undefined;
  readonly command: string | undefined;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Relative to the project root; undefined means the root itself. */
  readonly cwd: string | undefined;
  /** Undefined means the default: json for a built-in harness, text for a command. */
  readonly outputFormat: 'text' | 'json' | undefined;
  readonly timeoutSeconds: number;
  readonly enabled: boolean;
}

/**
 * One declared critic. A broken entry keeps what could be read of it (for listing) and
 * the reasons it cannot run; it never stops the other critics from running.
 */
export interface CriticDeclaration {
  readonly index: number;
  readonly name: string | undefined;
  readonly harness: string | undefined;
  readonly model: string | undefined;
  /** The declared command, even when the entry is broken (a phrase is shown as written). */
  readonly command: string | undefined;
  readonly enabled: boolean;
  readonly entry: CriticEntry | undefined;
  readonly problems: readonly SourceIssue[];
}

export interface ReviewsConfig {
  readonly selfReviewCount: number;
  readonly criticReviewCount: number;
  readonly stopOnNoNewFindings: boolean;
  readonly escalateOnRepeatFinding: boolean;
  /** What a critic with the author's own harness and model meets: refused, or a warning. */
  readonly sameModelCritic: 'refuse' | 'warn';
  readonly critics: readonly CriticDeclaration[];
}

export type ReviewsResult = { ok: true; reviews: ReviewsConfig } | { ok: false; issues: SourceIssue[] };

export const DEFAULT_TIMEOUT_SECONDS = 900;

const DEFAULTS: Omit<ReviewsConfig, 'critics'> = { selfReviewCount: 3, criticReviewCount: 3, stopOnNoNewFindings: true, escalateOnRepeatFinding: true, sameModelCritic: 'refuse' };

/** Reviews settings when the configuration declares none. */
export function defaultReviews(): ReviewsConfig {
  return { ...DEFAULTS, critics: [] };
}

/**
 * Read `reviews` from a parsed configuration file. Settings that are wrong, a `critics`
 * that is not a list, and duplicate critic names reject the whole configuration; a
 * broken critic entry is kept with its own reasons and lines.
 */
export function parseReviewsConfig(source: YamlSource | undefined): ReviewsResult {
  const root = source?.value;
  if (!source || root === null || typeof root !== 'object' || Array.isArray(root)) return { ok: true, reviews: defaultReviews() };
  const value = (root as Record<string, unknown>)['reviews'];
  if (value === undefined || value === null) return { ok: true, reviews: defaultReviews() };
  const at = (path: readonly PropertyKey[], message: string): SourceIssue => ({ file: source.file, ...source.positionOf(path), message });
  if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, issues: [at(['reviews'], 'reviews must be a mapping')] };

  const settings = v.safeParse(ReviewSettingsSchema, value, { abortEarly: false });
  if (!settings.success) return { ok: false, issues: schemaIssues(ReviewSettingsSchema, settings.issues, atSource(source), { base: ['reviews'] }) };
  const rawCritics = (value as Record<string, unknown>)['critics'];
  if (rawCritics !== undefined && rawCritics !== null && !Array.isArray(rawCritics)) {
    return { ok: false, issues: [at(['reviews', 'critics'], 'reviews.critics must be a list of critic entries')] };
  }
  const critics = ((rawCritics ?? []) as unknown[]).map((raw, index) => declareCritic(source, raw, index));

  const duplicates: SourceIssue[] = [];
  const seen = new Map<string, number>();
  for (const critic of critics) {
    if (critic.name === undefined) continue;
    const first = seen.get(critic.name);
    if (first === undefined) seen.set(critic.name, critic.index);
    else duplicates.push(at(['reviews', 'critics', critic.index, 'name'], `duplicate critic name "${critic.name}" (first declared at critics[${first}]); names must be unique`));
  }
  if (duplicates.length > 0) return { ok: false, issues: duplicates };

  const given = settings.output;
  return {
    ok: true,
    reviews: {
      selfReviewCount: given.selfReviewCount ?? DEFAULTS.selfReviewCount,
      criticReviewCount: given.criticReviewCount ?? DEFAULTS.criticReviewCount,
      stopOnNoNewFindings: given.stopOnNoNewFindings ?? DEFAULTS.stopOnNoNewFindings,
      escalateOnRepeatFinding: given.escalateOnRepeatFinding ?? DEFAULTS.escalateOnRepeatFinding,
      sameModelCritic: given.sameModelCritic ?? DEFAULTS.sameModelCritic,
      critics,
    },
  };
}

function declareCritic(source: YamlSource, raw: unknown, index: number): CriticDeclaration {
  const fields = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const str = (key: string) => (typeof fields[key] === 'string' && fields[key] !== '' ? (fields[key] as string) : undefined);
  const base = { index, name: str('name'), harness: str('harness'), model: str('model'), command: str('command'), enabled: fields['enabled'] !== false };
  const path = ['reviews', 'critics', index];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ...base, entry: undefined, problems: [{ file: source.file, ...source.positionOf(path), message: `critics[${index}] must be a mapping with at least a name` }] };
  }
  const parsed = v.safeParse(CriticEntrySchema, raw, { abortEarly: false });
  if (!parsed.success) return { ...base, entry: undefined, problems: schemaIssues(CriticEntrySchema, parsed.issues, atSource(source), { base: path }) };
  const o = parsed.output;
  const entry: CriticEntry = {
    name: o.name,
    harness: o.harness,
    model: o.model,
    command: o.command,
    args: o.args ?? [],
    env: o.env ?? {},
    cwd: o.cwd,
    outputFormat: o.outputFormat,
    timeoutSeconds: o.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
    enabled: o.enabled ?? true,
  };
  return { ...base, entry, problems: [] };
}
