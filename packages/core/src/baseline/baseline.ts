import * as v from 'valibot';
import { compareText, RULE_IDS, type Diagnostic } from '../diagnostic.js';
import { FIXED_RULES } from '../config/rule-levels.js';
import type { WorkItemResult } from '../gate/evaluate-work-item.js';
import type { WorkItemInput } from '../gate/inputs.js';
import { parseJsonDocument } from '../json/parse-json-document.js';
import type { SourceIssue } from '../yaml/yaml-source.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

/** Where a repository records the findings it accepted when it adopted the-loop. */
export const BASELINE_FILE = '.the-loop/baseline.json';

// Built on first use: most runs validate none of these (see builtOnFirstUse).
const schemas = builtOnFirstUse(() => {
  const BaselineEntrySchema = v.strictObject({
    ruleId: v.picklist(RULE_IDS, 'must be a rule id'),
    file: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
    /** The first 16 hex digits of the SHA-256 of the finding's line, whitespace squeezed. */
    lineDigest: v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/, 'must be 16 hex digits')),
    /** How many findings share rule, file and line text. */
    count: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1')),
    /** The first such finding's message when recorded, for whoever reviews the file. */
    message: v.string(),
  });

  const BaselineSchema = v.strictObject({
    schemaVersion: v.literal(1),
    findings: v.array(BaselineEntrySchema),
  });
  return { BaselineEntrySchema, BaselineSchema };
});

/** One accepted finding: rule, file and a digest of the finding's own line, never its line number. */
export const BaselineEntrySchema = builtOnFirstUse(() => schemas.BaselineEntrySchema);

export const BaselineSchema = builtOnFirstUse(() => schemas.BaselineSchema);

export type Baseline = v.InferOutput<typeof BaselineSchema>;
export type BaselineEntry = v.InferOutput<typeof BaselineEntrySchema>;

export type BaselineResult = { ok: true; baseline: Baseline } | { ok: false; issues: SourceIssue[] };

/** Parse a baseline file; every problem is reported with its line, never a silent empty baseline. */
export function parseBaseline(file: string, text: string): BaselineResult {
  const result = parseJsonDocument(file, text, BaselineSchema);
  return result.ok ? { ok: true, baseline: result.value } : result;
}

/** Serialise a baseline as it is checked in: entries in a stable order, two-space indent, final newline. */
export function serializeBaseline(baseline: Baseline): string {
  return `${JSON.stringify({ schemaVersion: 1, findings: [...baseline.findings].sort(compareEntries) }, null, 2)}\n`;
}

/**
 * The fingerprints of a work item's findings: rule, file and a digest of the finding's own line,
 * whitespace squeezed (so re-indenting changes nothing). A finding with no line, or on a file
 * the work item's input does not hold, digests the empty line.
 */
export function fingerprints(input: Pick<WorkItemInput, 'dir' | 'files'>, digest: (text: string) => string): (finding: Diagnostic) => Pick<BaselineEntry, 'ruleId' | 'file' | 'lineDigest'> {
  const lines = new Map<string, readonly string[]>();
  const lineOf = (finding: Diagnostic): string => {
    if (finding.line === undefined || !finding.file.startsWith(`${input.dir}/`)) return '';
    const name = finding.file.slice(input.dir.length + 1);
    let split = lines.get(name);
    if (!split) {
      const source = input.files.get(name);
      split = source && 'text' in source ? source.text.split(/\r\n|\r|\n/) : [];
      lines.set(name, split);
    }
    return (split[finding.line - 1] ?? '').replace(/\s+/g, ' ').trim();
  };
  return (finding) => ({ ruleId: finding.ruleId, file: finding.file, lineDigest: digest(lineOf(finding)).slice(0, 16) });
}

/** The key two findings share when the baseline counts them as the same: rule, file, line digest. */
function keyOf(entry: Pick<BaselineEntry, 'ruleId' | 'file' | 'lineDigest'>): string {
  return `${entry.ruleId}\u0000${entry.file}\u0000${entry.lineDigest}`;
}

/** A work item's findings as baseline entries. Rules that keep the gate failing closed are never baselined. */
export function baselineEntries(result: WorkItemResult, input: Pick<WorkItemInput, 'dir' | 'files'>, digest: (text: string) => string): BaselineEntry[] {
  const fingerprintOf = fingerprints(input, digest);
  const entries = new Map<string, BaselineEntry>();
  for (const finding of result.findings) {
    if (FIXED_RULES.has(finding.ruleId)) continue;
    const entry = { ...fingerprintOf(finding), count: 1, message: finding.message };
    const key = keyOf(entry);
    const seen = entries.get(key);
    entries.set(key, seen ? { ...seen, count: seen.count + 1 } : entry);
  }
  return [...entries.values()];
}

/** A baseline of the given entries. */
export function baselineOf(entries: readonly BaselineEntry[]): Baseline {
  return { schemaVersion: 1, findings: [...entries].sort(compareEntries) };
}

/**
 * What applying a baseline reads of it: how many findings it accepts for each rule, file and
 * line digest. A run works it out once and applies it to every work item; the entries' messages
 * and the rest of the file need not be kept for that (a baseline near its size cap held about
 * 30 MB in every thread of a report, and the heap grew by twice that).
 */
export type BaselineCounts = ReadonlyMap<string, number>;

/** The counts {@link applyBaseline} reads of a baseline. */
export function baselineCounts(baseline: Baseline): BaselineCounts {
  return new Map(baseline.findings.map((entry) => [keyOf(entry), entry.count]));
}

/**
 * The counts for findings on each of `files`: {@link applyBaseline} reads nothing else for a
 * work item whose findings are on those files, so a command that evaluates one item can keep
 * these apart and read only them. Each file's entries come in the counts' order; a file with
 * none has an empty list.
 */
export function baselineCountsByFile(counts: BaselineCounts, files: Iterable<string>): Map<string, [string, number][]> {
  const byFile = new Map<string, [string, number][]>();
  for (const file of files) byFile.set(file, []);
  for (const [key, count] of counts) {
    const start = key.indexOf('\u0000') + 1;
    byFile.get(key.slice(start, key.lastIndexOf('\u0000')))?.push([key, count]);
  }
  return byFile;
}

/**
 * Mark the findings the baseline accepts `baselined: true`: for each rule, file and line text,
 * as many as the baseline counts, in order. Baselined findings no longer fail the result, so a
 * work item whose only errors are baselined is `ok`; where it stands in the graph is unchanged.
 */
export function applyBaseline(result: WorkItemResult, input: Pick<WorkItemInput, 'dir' | 'files'>, accepted: BaselineCounts, digest: (text: string) => string): WorkItemResult {
  return markBaselined(result, fingerprints(input, digest), accepted);
}

/**
 * {@link applyBaseline} with each finding's fingerprint given: what a caller that kept them with
 * the result (the CLI's result cache) uses instead of the artifacts' text.
 */
export function markBaselined(result: WorkItemResult, fingerprintOf: (finding: Diagnostic) => Pick<BaselineEntry, 'ruleId' | 'file' | 'lineDigest'>, accepted: BaselineCounts): WorkItemResult {
  if (accepted.size === 0) return result;
  // How many of each entry's findings this work item has used up so far.
  const used = new Map<string, number>();
  // The nodes' findings and the result's are the same objects, so one map marks both.
  const marked = new Map<Diagnostic, Diagnostic>();
  for (const finding of result.findings) {
    if (FIXED_RULES.has(finding.ruleId)) continue;
    const key = keyOf(fingerprintOf(finding));
    const taken = used.get(key) ?? 0;
    if (taken >= (accepted.get(key) ?? 0)) continue;
    used.set(key, taken + 1);
    marked.set(finding, { ...finding, baselined: true });
  }
  if (marked.size === 0) return result;
  const mark = (d: Diagnostic): Diagnostic => marked.get(d) ?? d;
  const findings = result.findings.map(mark);
  return {
    ...result,
    ok: !findings.some((d) => d.severity === 'error' && d.baselined !== true),
    nodes: result.nodes.map((node) => ({ ...node, findings: node.findings.map(mark) })),
    findings,
  };
}

/** How much one entry grew: what was recorded before (0 when it is new) and what is recorded now. */
export interface BaselineGrowth {
  readonly entry: BaselineEntry;
  /** Its index in the newer baseline's `findings`, for its line. */
  readonly index: number;
  readonly before: number;
}

/** The entries a newer baseline adds to an older one (or counts more often); a shrinking baseline adds none. */
export function baselineGrowth(before: Baseline | undefined, after: Baseline): BaselineGrowth[] {
  const old = new Map((before?.findings ?? []).map((entry) => [keyOf(entry), entry.count]));
  return after.findings.flatMap((entry, index) => {
    const was = old.get(keyOf(entry)) ?? 0;
    return entry.count > was ? [{ entry, index, before: was }] : [];
  });
}

/**
 * One baseline that accepts whatever any of `baselines` accepts, each entry as often as the one
 * that counts it most: what several commits accepted between them. Undefined when none has a baseline.
 */
export function baselineUnion(baselines: ReadonlyArray<Baseline | undefined>): Baseline | undefined {
  const present = baselines.filter((b): b is Baseline => b !== undefined);
  if (present.length === 0) return undefined;
  const widest = new Map<string, BaselineEntry>();
  for (const entry of present.flatMap((b) => b.findings)) {
    const seen = widest.get(keyOf(entry));
    if (!seen || entry.count > seen.count) widest.set(keyOf(entry), entry);
  }
  return baselineOf([...widest.values()]);
}

/**
 * `baseline` without what it grew beyond `limit`: each entry counted no more often than `limit`
 * counts it, and dropped when `limit` does not accept it (or there is no `limit`).
 */
export function baselineWithin(baseline: Baseline, limit: Baseline | undefined): Baseline {
  const allowed = new Map((limit?.findings ?? []).map((entry) => [keyOf(entry), entry.count]));
  return baselineOf(
    baseline.findings.flatMap((entry) => {
      const count = Math.min(entry.count, allowed.get(keyOf(entry)) ?? 0);
      return count > 0 ? [{ ...entry, count }] : [];
    }),
  );
}

function compareEntries(a: BaselineEntry, b: BaselineEntry): number {
  return compareText(a.file, b.file) || compareText(a.ruleId, b.ruleId) || compareText(a.lineDigest, b.lineDigest);
}
