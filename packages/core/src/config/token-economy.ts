import * as v from 'valibot';
import type { SourceIssue, YamlSource } from '../yaml/yaml-source.js';
import { atSource, schemaIssues } from '../yaml/schema-issues.js';
import { builtOnFirstUse } from '../built-on-first-use.js';

const name = (what: string) => v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, `must be a ${what} name (letters, digits, ".", "_", "-")`));

// Built on first use: most runs validate none of these (see builtOnFirstUse).
const schemas = builtOnFirstUse(() => {
  const model = v.pipe(v.string(), v.trim(), v.minLength(1, 'must name a model'));

  const ModelRoutingSchema = v.strictObject({
    /** `frontier: {claude: opus, cursor: gpt-5}` — a harness a tier does not list runs its default model. */
    tiers: v.optional(v.record(name('tier'), v.record(name('harness'), model))),
    /** `design: frontier` — the tier each node `stage:` runs on; a stage not listed runs the harness's default model. */
    stages: v.optional(v.record(name('stage'), name('tier'))),
  });

  const TokenEconomySchema = v.looseObject({ modelRouting: v.optional(ModelRoutingSchema) });
  return { ModelRoutingSchema, TokenEconomySchema };
});

/**
 * `tokenEconomy.modelRouting`: which model a stage of the lifecycle runs on. A stage names a
 * tier; a tier names a model per harness, so one table serves every harness.
 */
export const ModelRoutingSchema = builtOnFirstUse(() => schemas.ModelRoutingSchema);

/** `tokenEconomy:` — only `modelRouting` is read; the other keys are advisory levers for people and stay allowed. */
export const TokenEconomySchema = builtOnFirstUse(() => schemas.TokenEconomySchema, { expects: 'Object' });

export type ModelRouting = v.InferOutput<typeof ModelRoutingSchema>;

export type ModelRoutingResult = { ok: true; routing: ModelRouting } | { ok: false; issues: SourceIssue[] };

/**
 * Read `tokenEconomy.modelRouting`. Every problem comes back with its line, and a stage that
 * names a tier the table does not declare is one: a typo must not silently run the default model.
 */
export function parseModelRouting(source: YamlSource | undefined): ModelRoutingResult {
  const root = source?.value;
  if (!source || root === null || typeof root !== 'object' || Array.isArray(root)) return { ok: true, routing: {} };
  const value = (root as Record<string, unknown>)['tokenEconomy'];
  if (value === undefined || value === null) return { ok: true, routing: {} };
  const parsed = v.safeParse(TokenEconomySchema, value, { abortEarly: false });
  if (!parsed.success) return { ok: false, issues: schemaIssues(TokenEconomySchema, parsed.issues, atSource(source), { base: ['tokenEconomy'] }) };
  const routing = parsed.output.modelRouting ?? {};
  const tiers = routing.tiers ?? {};
  const unknown = Object.entries(routing.stages ?? {})
    .filter(([, tier]) => !(tier in tiers))
    .map(([stage, tier]) => {
      const declared = Object.keys(tiers);
      return {
        file: source.file,
        ...source.positionOf(['tokenEconomy', 'modelRouting', 'stages', stage]),
        message: `tokenEconomy.modelRouting.stages.${stage}: tier "${tier}" is not declared under tokenEconomy.modelRouting.tiers${declared.length > 0 ? ` (declared: ${declared.join(', ')})` : ''}`,
      };
    });
  return unknown.length > 0 ? { ok: false, issues: unknown } : { ok: true, routing };
}

/** The model a stage runs on for one harness: undefined means the harness's own default. */
export function modelForStage(routing: ModelRouting, stage: string | undefined, harness: string): { tier: string | undefined; model: string | undefined } {
  const tier = stage === undefined ? undefined : routing.stages?.[stage];
  return { tier, model: tier === undefined ? undefined : routing.tiers?.[tier]?.[harness] };
}
