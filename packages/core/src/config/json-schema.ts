import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { EdgeSchema, GraphSchema, NodeSchema } from '../graph/schema.js';
import { HooksConfigSchema } from './hooks-schema.js';
import { TokenEconomySchema } from './token-economy.js';
import { ReviewsSchema } from './reviews-schema.js';
import { ApprovalsConfigSchema, GitHubConfigSchema, NotificationsConfigSchema } from './runtime-config.js';
import { RulesSchema } from './rule-levels.js';
import { WorkflowSchema } from './workflow-schema.js';
import { VerificationSchema } from '../verification/config.js';
import { EvidenceRecordSchema } from '../evidence/record.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

/**
 * The configuration file's sections but `workflow`, each optional. Made without building any
 * section's own schema (each stand-in says what it expects), so a run whose file leaves a
 * section out never builds it.
 */
export const ConfigSectionSchemas = builtOnFirstUse(() => ({
  reviews: v.optional(ReviewsSchema),
  hooks: v.optional(HooksConfigSchema),
  github: v.optional(GitHubConfigSchema),
  notifications: v.optional(NotificationsConfigSchema),
  verification: v.optional(VerificationSchema),
  approvals: v.optional(ApprovalsConfigSchema),
  tokenEconomy: v.optional(TokenEconomySchema),
  rules: v.optional(RulesSchema),
}));

/**
 * The whole configuration file as the-loop reads it: every section, each key known, so a
 * misspelt or outdated key is an error with its line rather than a setting silently ignored.
 */
export const HarnessConfigFileSchema = builtOnFirstUse(() => {
  // `workflow.graph` either replaces the default graph or extends it.
  const GraphExtensionSchema = v.strictObject({
    extends: v.literal('default'),
    start: v.optional(GraphSchema.entries.start),
    nodes: v.optional(v.array(NodeSchema)),
    edges: v.optional(v.array(EdgeSchema)),
  });
  return v.strictObject({
    workflow: v.optional(
      v.strictObject({
        ...WorkflowSchema.entries,
        graph: v.optional(v.union([GraphSchema, GraphExtensionSchema])),
      }),
    ),
    ...ConfigSectionSchemas,
  });
});

/**
 * A JSON Schema (draft-07) for `.the-loop/harness-config.yaml`, generated from the same
 * valibot schemas the CLI validates with, so an editor and the CLI agree. Checks that a
 * JSON Schema cannot say (placeholders, whitespace in a command) are left to the CLI.
 */
export function harnessConfigJsonSchema(): Record<string, unknown> {
  const generated = toJsonSchema(HarnessConfigFileSchema, { errorMode: 'ignore' }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, title: 'the-loop harness configuration (.the-loop/harness-config.yaml)', ...rest };
}

/** A JSON Schema (draft-07) for an evidence record, `docs/specs/<id>/evidence/<check-id>.json` (`evidence.v1`). */
export function evidenceRecordJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = toJsonSchema(EvidenceRecordSchema, { errorMode: 'ignore' }) as Record<string, unknown>;
  return { $schema, title: 'the-loop evidence record (evidence.v1)', ...rest };
}
