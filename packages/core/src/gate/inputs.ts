import type { ArtifactFacts } from '../artifact/types.js';
import type { VerificationInput } from '../verification/view.js';
import type { SourceIssue } from '../yaml/yaml-source.js';

/**
 * A file's contents, or the reason it could not be read (binary, not UTF-8, too large, a link
 * loop). `facts` are what parsing these contents gives, when they were read earlier (a cache).
 */
export type ArtifactSource = { readonly text: string; readonly facts?: ArtifactFacts | undefined } | { readonly unreadable: string };

/**
 * An approval bound to the artifact's SHA-256: recorded by `the-loop graph approve`, or read
 * from a pull-request review, whose `digest` is of the artifact's bytes at the reviewed commit.
 */
export interface Approval {
  readonly artifact: string;
  /** SHA-256 of the approved bytes; empty when a review's commit holds no readable copy (see `reviewed.problem`). */
  readonly digest: string;
  readonly by: string;
  readonly at: string;
  /** For an approval from a pull-request review: the commit it approved, and why that commit's copy could not be read. */
  readonly reviewed?: { readonly commit: string; readonly url?: string | undefined; readonly problem?: string | undefined } | undefined;
}

/** Where approvals come from: `graph approve` records (`local`) or pull-request reviews (`github`). */
export type ApprovalSource = 'local' | 'github';

/** Everything a gate evaluation reads about one work item. The CLI gathers it; core only reads it. */
export interface WorkItemInput {
  readonly id: string;
  /** The work item's folder relative to the repository root, with `/` separators. */
  readonly dir: string;
  /** Artifact files by name (`design.md`), as found in the folder. */
  readonly files: ReadonlyMap<string, ArtifactSource>;
  readonly approvals?: readonly Approval[] | undefined;
  /** Where `approvals` came from (default `local`); the findings tell a person how to approve. */
  readonly approvalSource?: ApprovalSource | undefined;
  /** Why approvals could not be read (no pull request, no network): `approval-missing` says so, and nothing passes. */
  readonly approvalsUnavailable?: string | undefined;
  /** Approvals graph-state.json records that the approval source does not read (under `github`): reported, never counted. */
  readonly ignoredApprovals?: readonly Approval[] | undefined;
  /** For approvals: SHA-256 (hex) of what an approval of each file covers (see `approvedContent`). */
  readonly digests?: ReadonlyMap<string, string> | undefined;
  /** Logins with the `approver` role in `.the-loop/collaborators.yaml`. */
  readonly approvers?: readonly string[] | undefined;
  /** Opt-in nodes a human selected for this work item. */
  readonly selectedOptIns?: readonly string[] | undefined;
  /** The pointer recorded in graph state (null once the item left the graph), compared with the derived node. */
  readonly recordedNode?: string | null | undefined;
  /** Why graph-state.json cannot be used (unreadable, not JSON, off its schema): the gate fails closed. */
  readonly graphStateIssues?: readonly SourceIssue[] | undefined;
  /** How to move on from a graph-state.json another tool or an earlier the-loop wrote. */
  readonly graphStateMigration?: string | undefined;
  /** The declared checks, their evidence records and the repository state now; absent, nothing is proven. */
  readonly verification?: VerificationInput | undefined;
}
