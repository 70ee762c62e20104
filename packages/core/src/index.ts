export { RULE_IDS, diagnostic, compareDiagnostics, compareIds, compareText, formatLocation, ruleUrl } from './diagnostic.js';
export type { Diagnostic, DiagnosticInput, Position, RuleId, Severity } from './diagnostic.js';

export { PARSER_VERSION, artifactFromFacts, extractFacts, parseArtifact } from './artifact/parse-artifact.js';
export { FACTS_JSON_FORMAT, factsFromJson, factsToJson, partsReadFromBytes, type FactsJsonOptions, type StoredFacts } from './artifact/facts-json.js';
export { findSection, normalizeTitle } from './artifact/find-section.js';
export type { Artifact, ArtifactFacts, FrontMatter, ListEntry, Section, Statement, Table, TableRow, Task } from './artifact/types.js';

export { compileGraph, compileGraphData, compileGraphValue, getDefaultGraph } from './graph/compile-graph.js';
export type { CompileResult } from './graph/compile-graph.js';
export { atSource, closest, didYouMean, dottedPath, schemaIssues } from './yaml/schema-issues.js';
export type { IssueAt, SchemaIssueOptions } from './yaml/schema-issues.js';
export { MAX_YAML_DEPTH, parseYaml, YAML_READER } from './yaml/parse-yaml.js';
export { DEFAULT_GRAPH_DATA, DEFAULT_GRAPH_YAML } from './graph/default-graph.data.js';
export { GATE_PREDICATES, GraphSchema, NodeSchema, EdgeSchema, GatePredicateSchema } from './graph/schema.js';
export type { GatePredicateKind } from './graph/schema.js';
export type { Actor, Edge, GateOutcome, GatePredicate, Graph, GraphNode, NotifyConfig } from './graph/types.js';

export { evaluateGate, evaluateWorkItem, mainLine } from './gate/evaluate-work-item.js';
export { recordedPointer } from './gate/evaluate-work-item.js';
export { blockingFindings } from './gate/blocking.js';
export { RULES, ruleById } from './rules/index.js';
export { PREDICATES, describePredicate, predicateKey } from './rules/predicates.js';
export type { GatePredicateEntry } from './rules/predicates.js';
export type { PredicateCheck, PredicateChecks, PredicateContext, PredicateValue, Rule, RuleExample, RuleExamples } from './rules/rule.js';
export type { NodeResult, NodeStatus, WorkItemResult } from './gate/evaluate-work-item.js';
export { findingsKey } from './gate/findings-key.js';
export type { Approval, ArtifactSource, WorkItemInput } from './gate/inputs.js';
export type { ApprovalSource } from './gate/inputs.js';

export { BASELINE_FILE, BaselineSchema, applyBaseline, baselineCounts, baselineCountsByFile, baselineEntries, baselineGrowth, baselineOf, baselineUnion, baselineWithin, fingerprints, markBaselined, parseBaseline, serializeBaseline } from './baseline/baseline.js';
export type { Baseline, BaselineCounts, BaselineEntry, BaselineGrowth, BaselineResult } from './baseline/baseline.js';
export { baselineGrew } from './rules/baseline-grown.js';
export { FIXED_RULES, RulesSchema, applyRuleLevels } from './config/rule-levels.js';
export type { RuleLevel, RuleLevels } from './config/rule-levels.js';
export { DEFAULT_GATE_SETTINGS } from './gate/settings.js';
export type { GateSettings } from './gate/settings.js';
export { DEFAULT_OUTCOME_WORDS, DEFAULT_REVIEW_CYCLES, REVIEW_OUTCOMES, outcomeOf, readReviewCycles } from './execution-log/review-cycles.js';
export type { ReviewCycleSettings, ReviewCycles, ReviewOutcome, ReviewRound } from './execution-log/review-cycles.js';

export { buildReport, countItem, emptyTotals, mergeTotals, toReportInput } from './report/build-report.js';
export type { ArtifactCount, Report, ReportInput, ReportItem, ReportTotals } from './report/build-report.js';

export { CONFIG_FILES, DEFAULT_SPEC_DIR, defaultConfig, parseHarnessConfig } from './config/harness-config.js';
export { WorkflowSchema } from './config/workflow-schema.js';
export type { ConfigResult, HarnessConfig } from './config/harness-config.js';
export { DEFAULT_PRESET, PRESETS, PRESET_NAMES, isPresetName, presetGraph } from './config/presets.js';
export type { Preset, PresetName } from './config/presets.js';

export { parseYamlSource } from './yaml/yaml-source.js';
export type { KnownYamlValue, SourceIssue, YamlSource, YamlSourceResult } from './yaml/yaml-source.js';

export { workItemIdProblem } from './work-item/work-item-id.js';
export { EXECUTION_LOG, KNOWN_ARTIFACTS, PRE_START_PHASES } from './work-item/known-artifacts.js';

export { graphDocument, graphToMermaid, graphToText } from './graph/export-graph.js';

export { ESCALATED_NODE, GRAPH_STATE_FILE, emptyGraphState, graphStateInput, nodeRecord, parseGraphState, serializeGraphState } from './graph-state/graph-state.js';
export type { GraphStateResult } from './graph-state/graph-state.js';
export { GraphStateSchema } from './graph-state/schema.js';
export type { ApprovalRecord, DecisionRecord, ForcedRecord, GraphState, NodeRecord } from './graph-state/schema.js';
export { DEFAULT_MAX_ATTEMPTS, escalateAt, forceTransition, startGraph, transition } from './graph-state/transition.js';
export type { EscalationDetails, Taken, TransitionResult, Verdict } from './graph-state/transition.js';
export { renderAssignment } from './graph-state/assignment.js';
export type { AssignmentInput, Reference } from './graph-state/assignment.js';
export { findingLines, findingWithFix } from './format/finding-lines.js';
export { LIFECYCLE_EVENTS } from './graph-state/effects.js';
export type { ConflictEntry, Effect, EffectKind, LifecycleEvent, TransitionRow } from './graph-state/effects.js';

export { APPROVER_ROLE, COLLABORATORS_FILE, CollaboratorsSchema, loginsWithRole, parseCollaborators } from './config/collaborators.js';
export type { Collaborator, CollaboratorsResult } from './config/collaborators.js';
export { GitHubConfigSchema, NotificationsConfigSchema, issueNumberOf, parseRuntimeConfig } from './config/runtime-config.js';
export type { GitHubConfig, NotificationsConfig, RuntimeConfig, RuntimeConfigResult } from './config/runtime-config.js';
export { ApprovalsConfigSchema } from './config/runtime-config.js';
export type { ApprovalsConfig } from './config/runtime-config.js';

export { LEARNINGS, PHASE_TRANSITIONS, RUN_USAGE, appendTableRow, appendToSection, appendTransitionRow, setFrontMatterValue } from './execution-log/edit-log.js';
export { CONFLICTS_FILE, appendConflict } from './execution-log/conflicts.js';
export { UNAPPROVED_LOG_SECTIONS, approvedContent, approvedLogContent } from './execution-log/approved-content.js';
export type { EditResult } from './execution-log/edit-log.js';

export { NO_USAGE } from './harness/adapter.js';
export type { HarnessAdapter, HarnessResult, HookDialect, HookEvent, HookEventKind, HookPayload, HookSettings, OneShotArgv, OneShotRequest, SamplePayload, SettingsResult, Usage } from './harness/adapter.js';
export { hookCommand, hookCommandEvent } from './harness/hook-command.js';
export { REVIEW_TEXT_KEYS, jsonAnswer, parseResultLike, parseResultObject, readUsage, reportsError, reviewText } from './harness/result-json.js';

export { DEFAULT_TIMEOUT_SECONDS, defaultReviews, parseReviewsConfig } from './config/reviews.js';
export type { CriticDeclaration, CriticEntry, ReviewsConfig, ReviewsResult } from './config/reviews.js';
export { CriticEntrySchema, PLACEHOLDERS, ReviewsSchema, placeholdersIn, substitutePlaceholders } from './config/reviews-schema.js';
export type { Placeholder } from './config/reviews-schema.js';
export { HarnessConfigFileSchema, evidenceRecordJsonSchema, harnessConfigJsonSchema } from './config/json-schema.js';
export { HooksConfigSchema } from './config/hooks-schema.js';
export { ModelRoutingSchema, TokenEconomySchema, modelForStage, parseModelRouting } from './config/token-economy.js';
export type { ModelRouting, ModelRoutingResult } from './config/token-economy.js';
export type { HooksConfig } from './config/hooks-schema.js';

export { attribution, criticBinary, resolveInvocation } from './critic/resolve-invocation.js';
export type { Invocation, InvocationResult, RoundInputs } from './critic/resolve-invocation.js';
export { authorFromFrontMatter, isSameAuthor } from './critic/author.js';
export type { Author } from './critic/author.js';

export { PROBE_PROMPT, argvForDigest, cachedVerdict, classifyProbe, declaredModelPairs, parseVerdictFile, verdictKey } from './models/verdicts.js';
export type { ModelPair, ModelVerdict, VerdictFile, VerdictKind, VerdictReason } from './models/verdicts.js';

export { nonEmptyString, parseJson, parseJsonObject } from './json/parse-json.js';
export type { JsonResult } from './json/parse-json.js';

export { howItEnded, notStarted, runFailure } from './process/process.js';
export type { ProcessRequest, ProcessResult } from './process/process.js';

export { CHECK_ID, CRITERION_ID, DEFAULT_CHECK_TIMEOUT_SECONDS, DEFAULT_ENVIRONMENT_FILES, VerificationSchema, defaultVerification, parseVerificationConfig } from './verification/config.js';
export type { CheckDeclaration, VerificationConfig, VerificationResult } from './verification/config.js';
export { readCriteria } from './verification/criteria.js';
export type { Criterion } from './verification/criteria.js';
export { TESTING_PLAN, planChecks, planFromFiles } from './verification/plan.js';
export type { PlannedCheck, SetAside, VerificationPlan } from './verification/plan.js';
export type { VerificationInput, VerificationView } from './verification/view.js';
export { verificationView } from './gate/evaluate-work-item.js';
export { EVIDENCE_DIR, MAX_LISTED_FILES, canonicalJson, describeRun, evidenceRecord, readEvidenceRecord, recordedCheck, runPassed, streamOutput } from './evidence/record.js';
export type { Dependencies, EvidenceRecord, Fingerprint, RecordBody, RecordRead, RunOutcome, Sha256, StreamOutput } from './evidence/record.js';
export { judgeCheck, judgeCriterion } from './evidence/judge.js';
export type { CheckEvidence, CriterionStatus, CriterionVerdict, CurrentState, EvidenceStatus } from './evidence/judge.js';
export { buildCompletionProof } from './proof/completion.js';
export type { CompletionProof, OpenDecision, ProofCheck, ProofCriterion } from './proof/completion.js';
export { proofToMarkdown } from './proof/markdown.js';
export { choicePrompt, choiceSchema, readChoice } from './run/choice.js';
export type { ChoicePromptInput, ChoiceReading } from './run/choice.js';
export { REVIEW_ANSWER_SCHEMA, RoundRecordSchema, findingText, parseRoundRecord, readReviewAnswer, reviewPrompt } from './run/review-round.js';
export type { ReviewPromptInput, ReviewReading, RoundFinding, RoundOutcome, RoundRecord, RoundRecordResult } from './run/review-round.js';
export { NO_RUN_USAGE, addUsage, runExitCode } from './run/run-result.js';
export type { NodeRun, NodeRunOutcome, RunResult, RunStatus, RunUsage } from './run/run-result.js';
export { parseJsonDocument } from './json/parse-json-document.js';
export type { JsonDocumentResult } from './json/parse-json-document.js';
export { InFlightSchema, SessionRecordSchema, SessionsSchema, requestIdProblem, sessionToResume } from './run/run-records.js';
export type { InFlight, SessionRecord, Sessions } from './run/run-records.js';
export { builtOnFirstUse } from './built-on-first-use.js';
