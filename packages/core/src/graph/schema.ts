import * as v from 'valibot';
import { builtOnFirstUse } from '../built-on-first-use.js';

// Built on first use: most runs validate none of these (see builtOnFirstUse).
const schemas = builtOnFirstUse(() => {
  const nonEmpty = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'));
  const nodeId = v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and hyphens'));

  const timeoutSeconds = v.pipe(v.number('must be a number of seconds'), v.finite('must be finite'), v.gtValue(0, 'must be greater than 0'));

  const repositoryPath = v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.check((path) => !path.startsWith('/') && !/^[A-Za-z]:/.test(path), 'must be relative to the repository root'),
    v.check((path) => !path.split(/[\\/]/).includes('..'), 'must stay inside the repository (no "..")'),
  );

  const GATE_PREDICATES = {
    locked: v.strictObject({ locked: v.literal(true) }),
    frontMatter: v.strictObject({
      frontMatter: v.record(v.string(), v.union([v.string(), v.number(), v.boolean()])),
    }),
    sections: v.strictObject({ sections: v.pipe(v.array(nonEmpty), v.minLength(1)) }),
    tasksComplete: v.strictObject({ tasksComplete: v.literal(true) }),
    boundariesFrom: v.strictObject({
      boundariesFrom: v.strictObject({ artifact: nonEmpty, section: nonEmpty }),
    }),
    reviewRounds: v.strictObject({
      reviewRounds: v.strictObject({ type: nonEmpty, min: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
    }),
    approved: v.strictObject({ approved: nonEmpty }),
    checksPass: v.strictObject({ checksPass: v.literal(true) }),
    criteriaVerified: v.strictObject({ criteriaVerified: v.literal(true) }),
  } as const;

  const GatePredicateSchema = v.union(Object.values(GATE_PREDICATES));

  const ActorSchema = v.picklist(['agent', 'human', 'code']);

  const NotifySchema = v.strictObject({
    onEnter: v.optional(v.array(nonEmpty)),
    onExit: v.optional(v.array(nonEmpty)),
    onGateFail: v.optional(v.array(nonEmpty)),
    onAwaitHuman: v.optional(v.array(nonEmpty)),
    onEscalate: v.optional(v.array(nonEmpty)),
    onExitGraph: v.optional(v.array(nonEmpty)),
  });

  const NodeSchema = v.strictObject({
    id: nodeId,
    phase: nonEmpty,
    actor: ActorSchema,
    produces: v.optional(nonEmpty),
    requires: v.optional(v.array(nodeId)),
    stage: v.optional(nonEmpty),
    optional: v.optional(v.boolean()),
    optIn: v.optional(v.boolean()),
    maxAttempts: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
    gate: v.optional(v.array(GatePredicateSchema)),
    choices: v.optional(v.array(nodeId)),
    notify: v.optional(NotifySchema),
    assignment: v.optional(nonEmpty),
    /** `inherit`: an orchestrated run resumes the work item's previous session on the same harness; `fresh` (default) starts a new one. */
    session: v.optional(v.picklist(['fresh', 'inherit'])),
    /** How long one harness run at this node may take before its process group is killed. */
    timeoutSeconds: v.optional(timeoutSeconds),
    /** Files disclosed in this node's assignment, and only in this node's. */
    references: v.optional(v.array(repositoryPath)),
  });

  const EdgeSchema = v.strictObject({
    from: nodeId,
    to: nodeId,
    on: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]*$/, 'must be a lower-case outcome name')),
  });

  const GraphSchema = v.strictObject({
    start: nodeId,
    nodes: v.pipe(v.array(NodeSchema), v.minLength(1)),
    edges: v.array(EdgeSchema),
  });
  return { timeoutSeconds, repositoryPath, GATE_PREDICATES, GatePredicateSchema, ActorSchema, NotifySchema, NodeSchema, EdgeSchema, GraphSchema };
});

/** Seconds a process may run: finite and greater than 0 (`.inf` and `.nan` are errors). */
export const timeoutSeconds = builtOnFirstUse(() => schemas.timeoutSeconds, { expects: 'number' });

/** A file inside the repository, relative to its root. */
export const repositoryPath = builtOnFirstUse(() => schemas.repositoryPath, { expects: 'string' });

/** Gate predicates, one key per list item (docs/graph.md). Unknown keys are errors. */
export const GATE_PREDICATES = builtOnFirstUse(() => schemas.GATE_PREDICATES);

export const GatePredicateSchema = builtOnFirstUse(() => schemas.GatePredicateSchema);

export const ActorSchema = builtOnFirstUse(() => schemas.ActorSchema);

export const NotifySchema = builtOnFirstUse(() => schemas.NotifySchema);

export const NodeSchema = builtOnFirstUse(() => schemas.NodeSchema);

/**
 * A node's fields in the order the schema lists them, which its output keeps: the default graph
 * is built in this order without building the schema (a test holds the two the same).
 */
export const NODE_FIELDS = ['id', 'phase', 'actor', 'produces', 'requires', 'stage', 'optional', 'optIn', 'maxAttempts', 'gate', 'choices', 'notify', 'assignment', 'session', 'timeoutSeconds', 'references'] as const satisfies readonly (keyof v.InferOutput<typeof NodeSchema>)[];

export const EdgeSchema = builtOnFirstUse(() => schemas.EdgeSchema);

/** The graph document, in the YAML's own shape. */
export const GraphSchema = builtOnFirstUse(() => schemas.GraphSchema);

export type GatePredicateKind = keyof typeof GATE_PREDICATES;

export type GraphInput = v.InferOutput<typeof GraphSchema>;
