import * as v from 'valibot';
import { builtOnFirstUse } from '../built-on-first-use.js';

// Built on first use: most runs validate none of these (see builtOnFirstUse).
const schemas = builtOnFirstUse(() => {
  const text = v.pipe(v.string(), v.minLength(1));
  // ISO-8601 instants as written by the injected clock (`Date#toISOString`).
  const instant = v.pipe(v.string(), v.isoTimestamp('must be an ISO-8601 timestamp'));
  const sha256 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, 'must be a hex SHA-256 digest'));

  const NodeRecordSchema = v.strictObject({
    /** Gate evaluations that did not pass; never decreases, across every visit of the node. */
    attempts: v.pipe(v.number(), v.integer(), v.minValue(0)),
    outcome: v.nullable(text),
    enteredAt: v.nullable(instant),
    exitedAt: v.nullable(instant),
    lastFindingsDigest: v.nullable(text),
  });

  const ApprovalRecordSchema = v.strictObject({
    artifact: text,
    digest: sha256,
    by: text,
    at: instant,
  });

  const DecisionRecordSchema = v.strictObject({
    node: text,
    /** The choice the agent asked for, or null when none was given. */
    requested: v.nullable(v.string()),
    taken: text,
    /** `choice` when the requested target was taken, `fallback` when the static edge was. */
    via: v.picklist(['choice', 'fallback']),
    /** Why: the agent's stated reason for its choice, or why the static edge was taken instead. Absent in records written before reasons were kept. */
    reason: v.optional(v.string()),
    at: instant,
  });

  const ForcedRecordSchema = v.strictObject({
    from: v.nullable(text),
    to: text,
    reason: text,
    by: v.nullable(text),
    at: instant,
  });

  const GraphStateSchema = v.strictObject({
    schemaVersion: v.literal(1),
    workItem: text,
    /** The node the work item is at; null once it has left the graph through its last node. */
    currentNode: v.nullable(text),
    nodes: v.record(v.string(), NodeRecordSchema),
    parked: v.nullable(v.strictObject({ node: text, reason: text, since: instant })),
    escalated: v.nullable(v.strictObject({ node: text, reason: text, at: instant })),
    approvals: v.array(ApprovalRecordSchema),
    decisions: v.array(DecisionRecordSchema),
    forced: v.array(ForcedRecordSchema),
    selectedOptIns: v.array(text),
  });
  return { NodeRecordSchema, ApprovalRecordSchema, DecisionRecordSchema, ForcedRecordSchema, GraphStateSchema };
});

/** What the runtime remembers about one node of one work item. */
export const NodeRecordSchema = builtOnFirstUse(() => schemas.NodeRecordSchema);

export const ApprovalRecordSchema = builtOnFirstUse(() => schemas.ApprovalRecordSchema);

export const DecisionRecordSchema = builtOnFirstUse(() => schemas.DecisionRecordSchema);

export const ForcedRecordSchema = builtOnFirstUse(() => schemas.ForcedRecordSchema);

/** `docs/specs/<id>/graph-state.json`, checked in beside the artifacts. */
export const GraphStateSchema = builtOnFirstUse(() => schemas.GraphStateSchema);

export type GraphState = v.InferOutput<typeof GraphStateSchema>;
export type NodeRecord = v.InferOutput<typeof NodeRecordSchema>;
export type ApprovalRecord = v.InferOutput<typeof ApprovalRecordSchema>;
export type DecisionRecord = v.InferOutput<typeof DecisionRecordSchema>;
export type ForcedRecord = v.InferOutput<typeof ForcedRecordSchema>;
