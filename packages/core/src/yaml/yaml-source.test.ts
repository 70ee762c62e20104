import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseCollaborators } from '../config/collaborators.js';
import { parseHarnessConfig, type ConfigResult } from '../config/harness-config.js';
import { YAML_READER } from './parse-yaml.js';
import { parseYamlSource } from './yaml-source.js';

const FILE = '.the-loop/harness-config.yaml';

// A value as a caller keeps it between runs: through JSON.
const kept = (value: unknown) => ({ value: JSON.parse(JSON.stringify(value)) as unknown });

// A configuration result without its parsed file, which holds functions.
const withoutSource = (result: ConfigResult) => (result.ok ? { ...result, config: { ...result.config, source: undefined } } : result);

// Configurations as teams write them, right and wrong: known sections and keys, misspelt ones,
// values of the wrong shape, comments and anchors.
const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: -5, max: 500 }), fc.boolean(), fc.constant(null));
const key = fc.constantFrom('workflow', 'preset', 'specDir', 'harness', 'timeoutSeconds', 'rules', 'reviews', 'hooks', 'noProgressCap', 'verification', 'checks', 'id', 'run', 'graph', 'extends', 'nodes', 'outcomes', 'workfow', 'spec_dir');
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('tree'), { maxLength: 3 }), fc.dictionary(key, tie('tree'), { maxKeys: 4 })),
}));
const configText = fc.oneof(
  fc.record({ workflow: fc.record({ preset: fc.constantFrom('the-loop', 'kiro', 'spec-kit', 'openspec', 'nope'), specDir: fc.constantFrom('docs/specs', './specs/', 'x') }, { requiredKeys: [] }), rules: fc.dictionary(fc.constantFrom('template-residue', 'section-missing', 'no-such-rule'), fc.constantFrom('off', 'warn', 'error', 'loud')), hooks: fc.record({ noProgressCap: fc.integer({ min: -1, max: 9 }) }) }, { requiredKeys: [] }).map((value) => stringify(value)),
  fc.dictionary(key, tree, { maxKeys: 5 }).map((value) => stringify(value)),
  fc.constantFrom('', '# only a comment\n', 'base: &b {preset: kiro}\nworkflow: *b\n', 'workflow:\n  preset: kiro\n  preset: openspec\n', '- a\n- b\n', 'workflow: [unclosed\n'),
);
const path = fc.array(fc.oneof(key, fc.nat({ max: 3 }), fc.string({ maxLength: 4 })), { maxLength: 5 });

describe('a YAML value kept from an earlier parse of the same text', () => {
  it('names the yaml library installed: a value kept under another is not used', () => {
    const installed = (createRequire(import.meta.url)('yaml/package.json') as { version: string }).version;
    expect(YAML_READER.startsWith(`yaml ${installed}, `)).toBe(true);
  });

  it('gives the configuration, every problem and every position the text gives', () => {
    fc.assert(
      fc.property(configText, fc.array(path, { maxLength: 6 }), (text, paths) => {
        const fresh = parseYamlSource(FILE, text);
        fc.pre(fresh.ok);
        if (!fresh.ok) return;
        const known = kept(fresh.source.value);
        const reused = parseYamlSource(FILE, text, known);
        expect(reused.ok).toBe(true);
        if (!reused.ok) return;
        expect(reused.source.value).toEqual(fresh.source.value);
        for (const at of paths) expect(reused.source.positionOf(at)).toEqual(fresh.source.positionOf(at));
        expect(reused.source.doc.toString()).toBe(fresh.source.doc.toString());
        expect(withoutSource(parseHarnessConfig(FILE, text, known))).toEqual(withoutSource(parseHarnessConfig(FILE, text)));
        const people = (result: ReturnType<typeof parseCollaborators>) => (result.ok ? result.collaborators : result.issues);
        expect(people(parseCollaborators('.the-loop/collaborators.yaml', text, known))).toEqual(people(parseCollaborators('.the-loop/collaborators.yaml', text)));
      }),
      { numRuns: 300 },
    );
  });

  it('places a problem found in a kept value where the text holds it, after a byte-order mark too', () => {
    const text = '\uFEFFworkflow:\n  preset: the-loop\nrules:\n  template-residue: loud\n';
    const fresh = parseHarnessConfig(FILE, text);
    expect(fresh.ok ? [] : fresh.issues.map((issue) => `${issue.line}:${issue.column}`)).toEqual(['4:21']);
    const source = parseYamlSource(FILE, text);
    expect(parseHarnessConfig(FILE, text, kept(source.ok && source.source.value))).toEqual(fresh);
  });
});
