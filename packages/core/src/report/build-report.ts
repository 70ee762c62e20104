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

/** Aggregate work-item results into the report. `artifactNames` lists every name to count, present or not. */
export function buildReport(specRoot: string, artifactNames: readonly string[], results: readonly ReportInput[]): Report {
  const artifacts: Record<string, ArtifactCount> = {};
  for (const name of artifactNames) artifacts[name] = { present: 0, status: {} };
  const executionLogPhases: Record<string, number> = {};
  const currentNodes: Record<string, number> = {};
  const findingsByRule: Record<string, number> = {};
  const sorted = [...results].sort((a, b) => compareIds(a.workItem, b.workItem));
  for (const result of sorted) {
    for (const [name, { status }] of Object.entries(result.artifacts)) {
      const count = (artifacts[name] ??= { present: 0, status: {} });
      count.present += 1;
      const key = status ?? '(none)';
      count.status[key] = (count.status[key] ?? 0) + 1;
    }
    if (result.logPhase !== null) executionLogPhases[result.logPhase] = (executionLogPhases[result.logPhase] ?? 0) + 1;
    const node = result.currentNode ?? 'done';
    currentNodes[node] = (currentNodes[node] ?? 0) + 1;
    for (const finding of result.findings) findingsByRule[finding.ruleId] = (findingsByRule[finding.ruleId] ?? 0) + 1;
  }
  const items = sorted.map((result) => ({
    workItem: result.workItem,
    currentNode: result.currentNode,
    ok: result.ok,
    findings: result.findings,
  }));
  return {
    schemaVersion: 1,
    specRoot,
    workItems: results.length,
    ok: items.every((item) => item.ok),
    artifacts,
    executionLogPhases,
    currentNodes,
    findingsByRule,
    items,
  };
}
