export { RULE_IDS, diagnostic, compareDiagnostics, compareIds, compareText, formatLocation, ruleUrl } from './diagnostic.js';
export type { Diagnostic, DiagnosticInput, Position, RuleId, Severity } from './diagnostic.js';

export { parseArtifact } from './artifact/parse-artifact.js';
export { findSection, normalizeTitle } from './artifact/find-section.js';
export type { Artifact, FrontMatter, ListEntry, Section, Table, TableRow, Task } from './artifact/types.js';

export { compileGraph, compileGraphData, compileGraphValue, getDefaultGraph } from './graph/compile-graph.js';
export type { CompileResult, IssueAt } from './graph/compile-graph.js';
export { DEFAULT_GRAPH_DATA, DEFAULT_GRAPH_YAML } from './graph/default-graph.data.js';
export { GATE_PREDICATES, GraphSchema, NodeSchema, EdgeSchema, GatePredicateSchema } from './graph/schema.js';
export type { Actor, Edge, GateOutcome, GatePredicate, Graph, GraphNode, NotifyConfig } from './graph/types.js';

export { evaluateWorkItem, mainLine } from './gate/evaluate-work-item.js';
export type { NodeResult, NodeStatus, WorkItemResult } from './gate/evaluate-work-item.js';
export type { Approval, ArtifactSource, WorkItemInput } from './gate/inputs.js';

export { buildReport } from './report/build-report.js';
export type { ArtifactCount, Report, ReportItem } from './report/build-report.js';

export { CONFIG_FILES, DEFAULT_SPEC_DIR, WorkflowSchema, defaultConfig, parseHarnessConfig } from './config/harness-config.js';
export type { ConfigResult, HarnessConfig } from './config/harness-config.js';

export { parseYamlSource } from './yaml/yaml-source.js';
export type { SourceIssue, YamlSource, YamlSourceResult } from './yaml/yaml-source.js';

export { workItemIdProblem } from './work-item/work-item-id.js';
export { EXECUTION_LOG, KNOWN_ARTIFACTS, PRE_START_PHASES } from './work-item/known-artifacts.js';
