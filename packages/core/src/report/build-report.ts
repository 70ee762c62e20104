import type { WorkItemResult } from '../gate/evaluate-work-item.js';
import { compareIds, type Diagnostic } from '../diagnostic.js';

/** What the report reads of each work item's result; the per-node detail stays behind. */
export type ReportInput = Pick<WorkItemResult, 'workItem' | 'currentNode' | 'ok' | 'findings' | 'artifacts' | 'logPhase'>;

/** Keep only what the report reads, so thousands of results stay small in memory and between threads. */
export function toReportInput(result: WorkItemResult): ReportInput {
  const { workItem, currentNode, ok, findings, artifacts, logPhase } = result;
  return { workItem, currentNode, ok, findings, artifacts, logPhase };
}

export interface ArtifactCount {
  present: number;
  status: Record<string, number>;
}

export interface ReportItem {
  readonly workItem: string;
  readonly currentNode: string | null;
  readonly ok: boolean;
  readonly findings: readonly Diagnostic[];
}

/** The drift report over every work item under the spec root. */
export interface Report {
  readonly schemaVersion: 1;
  readonly specRoot: string;
  readonly workItems: number;
  readonly ok: boolean;
  readonly artifacts: Record<string, ArtifactCount>;
  readonly executionLogPhases: Record<string, number>;
  readonly currentNodes: Record<string, number>;
  readonly findingsByRule: Record<string, number>;
  readonly items: readonly ReportItem[];
}

/** The report without its items: the counts over every work item. */
export type ReportTotals = Omit<Report, 'items'>;

/** Totals over no work item yet; `artifactNames` lists every name to count, present or not. */
export function emptyTotals(specRoot: string, artifactNames: readonly string[]): ReportTotals {
  const artifacts: Record<string, ArtifactCount> = {};
  for (const name of artifactNames) artifacts[name] = { present: 0, status: {} };
  return { schemaVersion: 1, specRoot, workItems: 0, ok: true, artifacts, executionLogPhases: {}, currentNodes: {}, findingsByRule: {} };
}

/**
 * Count one work item into `totals` (in place) and give its entry in the report's items. Work
 * items are counted in report order: a key appears in a count where it first occurs.
 */
export function countItem(totals: ReportTotals, result: ReportInput): ReportItem {
  const counted = totals as Mutable<ReportTotals>;
  for (const [name, { status }] of Object.entries(result.artifacts)) {
    const count = (counted.artifacts[name] ??= { present: 0, status: {} });
    count.present += 1;
    const key = status ?? '(none)';
    count.status[key] = (count.status[key] ?? 0) + 1;
  }
  if (result.logPhase !== null) add(counted.executionLogPhases, result.logPhase, 1);
  add(counted.currentNodes, result.currentNode ?? 'done', 1);
  for (const finding of result.findings) add(counted.findingsByRule, finding.ruleId, 1);
  counted.workItems += 1;
  counted.ok &&= result.ok;
  return { workItem: result.workItem, currentNode: result.currentNode, ok: result.ok, findings: result.findings };
}

/**
 * Add the totals of the work items that come after those of `totals` (in place): the same
 * counts, in the same key order, as counting every item in order into one.
 */
export function mergeTotals(totals: ReportTotals, later: ReportTotals): void {
  const merged = totals as Mutable<ReportTotals>;
  for (const [name, { present, status }] of Object.entries(later.artifacts)) {
    const count = (merged.artifacts[name] ??= { present: 0, status: {} });
    count.present += present;
    for (const [key, n] of Object.entries(status)) add(count.status, key, n);
  }
  for (const [key, n] of Object.entries(later.executionLogPhases)) add(merged.executionLogPhases, key, n);
  for (const [key, n] of Object.entries(later.currentNodes)) add(merged.currentNodes, key, n);
  for (const [key, n] of Object.entries(later.findingsByRule)) add(merged.findingsByRule, key, n);
  merged.workItems += later.workItems;
  merged.ok &&= later.ok;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function add(counts: Record<string, number>, key: string, n: number): void {
  counts[key] = (counts[key] ?? 0) + n;
}

/** Aggregate work-item results into the report. `artifactNames` lists every name to count, present or not. */
export function buildReport(specRoot: string, artifactNames: readonly string[], results: readonly ReportInput[]): Report {
  const totals = emptyTotals(specRoot, artifactNames);
  const items = [...results].sort((a, b) => compareIds(a.workItem, b.workItem)).map((result) => countItem(totals, result));
  return { ...totals, items };
}
