import * as v from 'valibot';

const specDir = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.check((dir) => !dir.startsWith('/') && !/^[A-Za-z]:/.test(dir), 'must be relative to the repository root'),
  v.check((dir) => !dir.split(/[\\/]/).includes('..'), 'must stay inside the repository (no "..")'),
);

/** `workflow` as the-loop reads it (the graph is compiled on its own, see compile-graph). */
export const WorkflowSchema = v.strictObject({
  specDir: v.optional(specDir),
  graph: v.optional(v.unknown()),
  // The phase list of earlier releases; the graph supersedes it and it is ignored.
  phases: v.optional(v.unknown()),
});
