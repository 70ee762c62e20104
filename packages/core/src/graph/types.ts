import type * as v from 'valibot';
import type { ActorSchema, EdgeSchema, GatePredicateSchema, NodeSchema, NotifySchema } from './schema.js';

export type Actor = v.InferOutput<typeof ActorSchema>;
export type GatePredicate = v.InferOutput<typeof GatePredicateSchema>;
export type NotifyConfig = v.InferOutput<typeof NotifySchema>;
export type Edge = v.InferOutput<typeof EdgeSchema>;

/** A compiled node: its declared fields plus the produced artifact's alternatives split out. */
export interface GraphNode extends Omit<v.InferOutput<typeof NodeSchema>, 'gate'> {
  readonly gate: readonly GatePredicate[];
  /** `requirements.md|bugfix.md` → `["requirements.md", "bugfix.md"]`; empty when nothing is produced. */
  readonly alternatives: readonly string[];
}

/** A compiled, validated lifecycle graph. */
export interface Graph {
  readonly start: string;
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly Edge[];
  readonly byId: ReadonlyMap<string, GraphNode>;
}

/** Outcomes every gate evaluation can produce; edges may route on further named outcomes. */
export type GateOutcome = 'pass' | 'block' | 'wait' | 'skip';
