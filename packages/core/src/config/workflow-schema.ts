import * as v from 'valibot';
import { repositoryPath, timeoutSeconds } from '../graph/schema.js';
import { didYouMean } from '../yaml/schema-issues.js';
import { PRESET_NAMES } from './presets.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

/** `workflow` as the-loop reads it (the graph is compiled on its own, see compile-graph). */
export const WorkflowSchema = builtOnFirstUse(() =>
  v.strictObject({
    /** The layout the repository already has: the spec root and graph of that tool (docs/presets.md). */
    preset: v.optional(v.picklist(PRESET_NAMES, (issue) => `must be one of ${PRESET_NAMES.join(', ')}${didYouMean(String(issue.input), PRESET_NAMES)}`)),
    specDir: v.optional(repositoryPath),
    graph: v.optional(v.unknown()),
    /** The harness `the-loop run` drives when `--harness` is not given (default `claude`). */
    harness: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]*$/, 'must be a harness name such as claude or cursor'))),
    /** Seconds one harness run at a node may take when the node sets no `timeoutSeconds` (default 1800). */
    timeoutSeconds: v.optional(timeoutSeconds),
    // The phase list of earlier releases; the graph supersedes it and it is ignored.
    phases: v.optional(v.unknown()),
  }),
);

