import type { Diagnostic, Position } from '../diagnostic.js';
import type { Graph, GraphNode } from '../graph/types.js';
import { unknownPhase } from '../rules/front-matter-invalid.js';
import { EXECUTION_LOG, PRE_START_PHASES } from '../work-item/known-artifacts.js';
import type { ArtifactSet } from './artifact-set.js';

/** The execution log's `phase:`: the agent's claim of where the work item is. */
export interface Claim {
  /** The claimed node's place on the main line; -1 when there is no claim, or it names no node. */
  readonly index: number;
  /** The value as written. */
  readonly raw?: string;
  readonly phase?: string;
  readonly position?: Position;
  /** A phase the graph does not have. */
  readonly problem?: Diagnostic;
}

/** A claim of a node on the main line, with where the log makes it. */
export type PhaseClaim = Claim & { readonly phase: string; readonly position: Position };

/** Read the log's claim; a log that cannot be read claims nothing (its own finding says why). */
export function readClaim(graph: Graph, line: readonly GraphNode[], files: ArtifactSet): Claim {
  if (!files.has(EXECUTION_LOG)) return { index: -1 };
  const read = files.get(EXECUTION_LOG);
  if ('problem' in read) return { index: -1 };
  const fm = read.artifact.frontMatter;
  const phase = fm?.data['phase'];
  if (phase === undefined) return { index: -1 };
  const position = fm?.positions['phase'] ?? { line: 1, column: 1 };
  const raw = String(phase);
  if (typeof phase === 'string' && PRE_START_PHASES.has(phase)) return { index: -1, raw };
  const index = line.findIndex((node) => node.phase === phase);
  if (index >= 0) return { index, raw, phase: raw, position };
  const phases = [...new Set(graph.nodes.map((n) => n.phase))];
  return { index: -1, raw, problem: unknownPhase(read.artifact.path, String(phase), position, phases) };
}
