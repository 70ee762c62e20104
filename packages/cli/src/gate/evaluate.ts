import {
  APPROVER_ROLE,
  applyBaseline,
  baselineEntries,
  CONFIG_FILES,
  EVIDENCE_DIR,
  evaluateGate,
  evaluateWorkItem,
  fingerprints,
  graphStateInput,
  loginsWithRole,
  markBaselined,
  planFromFiles,
  toReportInput,
  type ArtifactFacts,
  type BaselineEntry,
  type Diagnostic,
  type GateOutcome,
  type GraphState,
  type ReportInput,
  type VerificationInput,
  type WorkItemInput,
  type WorkItemResult,
} from '@the-loop/core';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { readRecords } from '../evidence/records.js';
import { currentState } from '../evidence/state.js';
import { readGraphState } from '../state/graph-state-store.js';
import { loadBaselineCounts } from '../workspace/baseline-file.js';
import { findingsDigest, sha256 } from '../workspace/digest.js';
import { artifactNames, listedHas, listFolder, readWorkItem, withFacts, type FolderListing } from '../workspace/read-work-item.js';
import { loadRuntimeConfig } from '../workspace/runtime-config.js';
import type { Repo } from '../workspace/repo.js';
import { committedBaselineCounts, loadBaselineCountsFor } from './baseline-counts.js';
import { forgeApprovals } from './forge-approvals.js';

export interface EvaluateOptions {
  /** Ignore recorded graph state and derive everything from the artifacts. */
  readonly recompute?: boolean;
  /** The graph state to read approvals and opt-ins from, when a command holds a newer one than the file. */
  readonly state?: GraphState;
  /** The environment GitHub is reached with (the process's own when absent). */
  readonly env?: NodeJS.ProcessEnv;
  /** `--pr N`: the pull request whose reviews approve, under `approvals.source: github`. */
  readonly pullRequest?: number | undefined;
  /**
   * Which baseline accepts findings: the working tree's (the default), or `committed`, the
   * working tree's without what it grew beyond HEAD's — what the harness hooks honour.
   */
  readonly baseline?: 'working-tree' | 'committed';
}

/**
 * Read one work item from disk and evaluate it: the one path every command and hook uses.
 * Approvals, approvers and the recorded pointer come from graph state (or, under
 * `approvals.source: github`, the pull request's reviews) and `.the-loop/collaborators.yaml`;
 * a corrupt state file fails the gate (`graph-state-invalid`). Findings
 * `.the-loop/baseline.json` accepts (see `options.baseline`) are marked `baselined` and fail nothing.
 */
export async function evaluateFromDisk(repo: Repo, id: string, options: EvaluateOptions = {}): Promise<WorkItemResult> {
  const { result, fingerprintOf } = await evaluated(repo, id, options);
  // Only the counts for the files the findings are on are read (see loadBaselineCountsFor).
  const files = new Set(result.findings.map((finding) => finding.file));
  const accepted = await (options.baseline === 'committed' ? committedBaselineCounts(repo, files) : loadBaselineCountsFor(repo, files));
  return accepted ? markBaselined(result, fingerprintOf, accepted) : result;
}

type FingerprintOf = (finding: Diagnostic) => Pick<BaselineEntry, 'ruleId' | 'file' | 'lineDigest'>;

/**
 * A work item's result before any baseline, and its findings' fingerprints, which a baseline
 * matches them by. With a result cache (`check` and the harness hooks, decision 195),
 * the result is kept under a key over every input the evaluation reads, as a report entry is,
 * with each finding's line digest; when it is kept, the artifacts are only digested: neither their
 * text nor their facts are read, nor any gate evaluated. Approvals from pull-request reviews are
 * read over the network and cannot be keyed: such a repository evaluates every time.
 */
async function evaluated(repo: Repo, id: string, options: EvaluateOptions): Promise<{ result: WorkItemResult; fingerprintOf: FingerprintOf }> {
  const results = repo.results;
  if (!results || loadRuntimeConfig(repo).approvals.source !== 'local') {
    const input = await gatherInput(repo, id, options);
    const result = evaluateWorkItem(repo.config.graph, input, repo.config.gate);
    await keepFacts(repo, input);
    return { result, fingerprintOf: fingerprints(input, sha256) };
  }
  const read = await readInput(repo, id, options, true);
  const key = results.resultKey(repo, read);
  const kept = key === undefined ? undefined : results.readResult(key, id);
  if (kept) {
    const digests = new Map(kept.result.findings.map((finding, at) => [finding, kept.lineDigests[at] as string]));
    // Every finding of a kept result is one of its own; anything else would match no entry.
    return { result: kept.result, fingerprintOf: (finding) => ({ ruleId: finding.ruleId, file: finding.file, lineDigest: digests.get(finding) ?? '' }) };
  }
  const input = await withFacts(read);
  const result = evaluateWorkItem(repo.config.graph, input, repo.config.gate);
  await keepFacts(repo, input);
  const fingerprintOf = fingerprints(input, sha256);
  if (key !== undefined) await results.writeResult(key, { result, lineDigests: result.findings.map((finding) => fingerprintOf(finding).lineDigest) });
  return { result, fingerprintOf };
}

/**
 * A work item's entry in the report: {@link evaluateFromDisk} with the working tree's baseline,
 * kept in the result cache under a key over every input it reads (decision 153). When the key is
 * that of a kept entry, the artifacts' facts are not read and nothing is evaluated. Approvals
 * from pull-request reviews are read over the network and cannot be keyed: such a repository
 * evaluates every time.
 */
export async function reportItemFromDisk(repo: Repo, id: string): Promise<ReportInput> {
  const results = repo.results;
  if (!results || loadRuntimeConfig(repo).approvals.source !== 'local') return toReportInput(await evaluateFromDisk(repo, id));
  const [read, accepted] = await Promise.all([readInput(repo, id, {}, true), loadBaselineCounts(repo)]);
  const key = results.key(repo, read, accepted);
  const kept = key === undefined ? undefined : results.read(key, id);
  if (kept) return kept;
  const input = await withFacts(read);
  const result = evaluateWorkItem(repo.config.graph, input, repo.config.gate);
  await keepFacts(repo, input);
  const item = toReportInput(accepted ? applyBaseline(result, input, accepted, sha256) : result);
  if (key !== undefined) await results.write(key, item);
  return item;
}

/** A work item's findings as baseline entries, ignoring any baseline there is. */
export async function baselineEntriesFromDisk(repo: Repo, id: string): Promise<BaselineEntry[]> {
  const input = await gatherInput(repo, id, {});
  const entries = baselineEntries(evaluateWorkItem(repo.config.graph, input, repo.config.gate), input, sha256);
  await keepFacts(repo, input);
  return entries;
}

/**
 * Keep in the artifact cache the facts of the item's files it had to parse, now that the gates
 * have read what they read of them (decision 198).
 */
async function keepFacts(repo: Repo, input: WorkItemInput): Promise<void> {
  if (!repo.cache) return;
  const facts: ArtifactFacts[] = [];
  for (const source of input.files.values()) if ('facts' in source && source.facts) facts.push(source.facts);
  await repo.cache.keep(facts);
}

/** Everything the gate reads about a work item, from disk, with the approvals its walk asks for. */
export async function gatherInput(repo: Repo, id: string, options: EvaluateOptions = {}): Promise<WorkItemInput> {
  return withReviews(repo, await readInput(repo, id, options), options, (input) => evaluateWorkItem(repo.config.graph, input, repo.config.gate).findings);
}

// Under `approvals.source: github`, recorded approvals are set aside: the reviews count instead.
// With `deferFacts`, the artifacts are only read and hashed, unless the plan of checks needs them.
async function readInput(repo: Repo, id: string, options: EvaluateOptions, deferFacts = false): Promise<WorkItemInput> {
  // Listed once for the artifacts, the graph state and the evidence folder alike.
  const listing = listFolder(repo, id);
  const [files, read] = await Promise.all([
    readWorkItem(repo, id, artifactNames(repo.config), { deferFacts, listing }),
    options.state ? Promise.resolve({ ok: true as const, state: options.state }) : readGraphState(repo, id, listing),
  ]);
  const input: WorkItemInput = { ...files, ...graphStateInput(read, options), approvers: loginsWithRole(repo.collaborators, APPROVER_ROLE), verification: await verificationInput(repo, id, files, listing) };
  if (loadRuntimeConfig(repo).approvals.source === 'local') return input;
  return { ...input, approvalSource: 'github', approvals: [], ignoredApprovals: input.approvals };
}

// Reviews are read only when an evaluation without them asks for an approval: a work item that
// is not at a human node costs no call to GitHub.
async function withReviews(repo: Repo, input: WorkItemInput, options: EvaluateOptions, findingsOf: (input: WorkItemInput) => readonly Diagnostic[]): Promise<WorkItemInput> {
  if (input.approvalSource !== 'github' || !findingsOf(input).some((d) => d.ruleId === 'approval-missing')) return input;
  // parseRuntimeConfig refuses approvals.source: github without a `github:` section.
  const github = loadRuntimeConfig(repo).github;
  if (!github) return input;
  return { ...input, ...(await forgeApprovals(repo, github, input, repo.collaborators, { env: options.env ?? process.env, pullRequest: options.pullRequest })) };
}

// The checks that apply, their records, and — only when there is a record to judge — the
// repository's state now, so a work item without evidence costs no git call. Records sit in the
// work item's evidence folder: without one, no check has a record whatever the plan, and the
// plan (read from the testing plan's facts) is not worked out.
async function verificationInput(repo: Repo, id: string, files: WorkItemInput, listing: FolderListing): Promise<VerificationInput> {
  const config = repo.config.verification;
  const configFile = repo.config.file ?? CONFIG_FILES[0];
  if (!hasEvidenceFolder(repo, id, listing)) return { config, configFile, records: new Map(), current: { unavailable: 'no record to compare' } };
  const plan = planFromFiles(config, (await withFacts(files)).files, files.dir);
  const records = await readRecords(repo, id, plan.checks.map((c) => c.id));
  const judged = plan.checks.filter((c) => { const read = records.get(c.id); return read !== undefined && 'record' in read; });
  const current = judged.length > 0 ? await currentState(repo, judged) : { unavailable: 'no record to compare' };
  return { config, configFile, records, current };
}

// Whether anything is at the evidence folder's path; only a path that is surely absent says no
// (most work items have none: the folder's listing says so, or no error is built for it).
function hasEvidenceFolder(repo: Repo, id: string, listing: FolderListing): boolean {
  const listed = listedHas(listing, EVIDENCE_DIR);
  if (listed !== undefined) return listed;
  try {
    return lstatSync(join(repo.specRoot, id, EVIDENCE_DIR), { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}

/** Evaluate the gate of one node (the recorded current node) from disk. */
export async function evaluateNodeFromDisk(repo: Repo, id: string, node: string, options: EvaluateOptions = {}): Promise<{ outcome: GateOutcome; findings: readonly Diagnostic[]; digest: string }> {
  const { graph, gate } = repo.config;
  const input = await withReviews(repo, await readInput(repo, id, { ...options, recompute: true }), options, (read) => evaluateGate(graph, read, node, gate).findings);
  const verdict = evaluateGate(graph, input, node, gate);
  return { ...verdict, digest: findingsDigest(verdict.findings) };
}
