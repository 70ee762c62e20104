import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseYamlSource } from '../yaml/yaml-source.js';
import { modelForStage, parseModelRouting, type ModelRouting } from './token-economy.js';

const FILE = '.the-loop/harness-config.yaml';
const parse = (...lines: string[]) => {
  const source = parseYamlSource(FILE, `${lines.join('\n')}\n`);
  if (!source.ok) throw new Error('bad YAML in the test');
  return parseModelRouting(source.source);
};
const issues = (...lines: string[]) => {
  const result = parse(...lines);
  return result.ok ? [] : result.issues.map((i) => `${i.line}:${i.column} ${i.message}`);
};

const TABLE = [
  'tokenEconomy:',
  '  contextManagement: {phaseBoundary: clear}',
  '  modelRouting:',
  '    tiers:',
  '      frontier: {claude: opus, cursor: gpt-5}',
  '      economy: {claude: haiku}',
  '    stages:',
  '      design: frontier',
  '      evidence: economy',
];

describe('tokenEconomy.modelRouting', () => {
  it('routes a stage to its tier\'s model for the harness, and to the harness default otherwise', () => {
    const result = parse(...TABLE);
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(modelForStage(result.routing, 'design', 'claude')).toEqual({ tier: 'frontier', model: 'opus' });
    expect(modelForStage(result.routing, 'design', 'cursor')).toEqual({ tier: 'frontier', model: 'gpt-5' });
    expect(modelForStage(result.routing, 'evidence', 'cursor')).toEqual({ tier: 'economy', model: undefined });
    expect(modelForStage(result.routing, 'tasks', 'claude')).toEqual({ tier: undefined, model: undefined });
    expect(modelForStage(result.routing, undefined, 'claude')).toEqual({ tier: undefined, model: undefined });
  });

  it('leaves the advisory keys of tokenEconomy alone and reads an absent table as no routing', () => {
    expect(parse('tokenEconomy: {contextManagement: {taskBoundary: compact}}')).toEqual({ ok: true, routing: {} });
    expect(parse('reviews: {}')).toEqual({ ok: true, routing: {} });
  });

  it('reports a stage that names an undeclared tier, a typo in modelRouting and a wrong value, each at its line', () => {
    expect(issues('tokenEconomy:', '  modelRouting:', '    tiers: {frontier: {claude: opus}}', '    stages: {design: fronteir}')).toEqual([
      '4:22 tokenEconomy.modelRouting.stages.design: tier "fronteir" is not declared under tokenEconomy.modelRouting.tiers (declared: frontier)',
    ]);
    expect(issues('tokenEconomy:', '  modelRouting:', '    stage: {design: frontier}')).toEqual(['3:5 tokenEconomy.modelRouting: unknown key "stage" (did you mean "stages"?)']);
    expect(issues('tokenEconomy:', '  modelRouting:', '    tiers: {frontier: {claude: ""}}')).toEqual(['3:32 tokenEconomy.modelRouting.tiers.frontier.claude: must name a model']);
  });

  it('never routes a stage to a model its tier does not name for that harness', () => {
    const routing = fc.record({
      tiers: fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.dictionary(fc.constantFrom('claude', 'cursor'), fc.string({ minLength: 1 }))),
      stages: fc.dictionary(fc.constantFrom('design', 'tasks'), fc.constantFrom('a', 'b', 'c')),
    });
    fc.assert(
      fc.property(routing, fc.constantFrom('design', 'tasks', 'other'), fc.constantFrom('claude', 'cursor'), (table: ModelRouting, stage, harness) => {
        const { tier, model } = modelForStage(table, stage, harness);
        expect(tier).toBe(table.stages?.[stage]);
        expect(model).toBe(tier === undefined ? undefined : table.tiers?.[tier]?.[harness]);
      }),
    );
  });
});
