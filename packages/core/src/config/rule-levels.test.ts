import { describe, expect, it } from 'vitest';
import { evaluateWorkItem, type WorkItemResult } from '../gate/evaluate-work-item.js';
import { DEFAULT_GATE_SETTINGS } from '../gate/settings.js';
import { getDefaultGraph } from '../graph/compile-graph.js';
import { approvedBy } from '../test-support/work-items.js';
import type { RuleLevels } from './rule-levels.js';

// Rule levels as the gate applies them: what a work item's result says under `rules:`.
const DIR = 'docs/specs/w';
const REQUIREMENTS = '---\nstatus: approved   # draft | in-review | approved\n---\n# Requirements\n## Security considerations\n- **Webhook endpoint**: signed\n';
const DESIGN = '---\nstatus: draft\n---\n# Design\n## Security design\nSignatures are checked.\n';

function evaluate(rules: RuleLevels, files: Record<string, string> = { 'requirements.md': REQUIREMENTS, 'design.md': DESIGN }): WorkItemResult {
  const input = { id: 'w', dir: DIR, files: new Map(Object.entries(files).map(([k, text]) => [k, { text }])), ...approvedBy('requirements.md') };
  return evaluateWorkItem(getDefaultGraph(), input, { ...DEFAULT_GATE_SETTINGS, rules });
}
const node = (result: WorkItemResult, id: string) => result.nodes.find((n) => n.node === id);
const found = (result: WorkItemResult, rule: string) => result.findings.filter((d) => d.ruleId === rule).map((d) => `${d.severity} ${d.node}`);

describe('rules: levels as the gate applies them', () => {
  it('by default, template residue and an unaddressed boundary are errors that leave their nodes unmet', () => {
    const result = evaluate({});
    expect(found(result, 'template-residue')).toEqual(['error requirements-definition']);
    expect(found(result, 'boundary-unaddressed')).toEqual(['error design']);
    expect(result.currentNode).toBe('requirements-definition');
  });

  it('warn reports with severity warning and leaves the node passing', () => {
    const result = evaluate({ 'template-residue': 'warn', 'boundary-unaddressed': 'warn' });
    expect(found(result, 'template-residue')).toEqual(['warning requirements-definition']);
    expect(found(result, 'boundary-unaddressed')).toEqual(['warning design']);
    expect(node(result, 'requirements-definition')?.status).toBe('passed');
    expect(node(result, 'design')).toMatchObject({ status: 'passed', outcome: 'pass' });
    expect(result.currentNode).toBe('design-approval');
  });

  it('off never reports, and the gate predicate only that rule checks holds', () => {
    const result = evaluate({ 'template-residue': 'off', 'boundary-unaddressed': 'off' });
    expect(result.findings.map((d) => d.ruleId)).not.toContain('template-residue');
    expect(result.findings.map((d) => d.ruleId)).not.toContain('boundary-unaddressed');
    expect(node(result, 'design')?.outcome).toBe('pass');
  });

  it('error turns a rule\'s warning into an error', () => {
    const log = '---\nphase: requirements-definition\n---\n# Log\n';
    expect(found(evaluate({}, { 'requirements.md': REQUIREMENTS, 'design.md': DESIGN, 'execution-log.md': log }), 'phase-mismatch')).toEqual([]);
    const lagging = { 'requirements.md': REQUIREMENTS.replace('   # draft | in-review | approved', ''), 'design.md': `${DESIGN}The webhook endpoint too.\n`, 'execution-log.md': log };
    expect(found(evaluate({}, lagging), 'phase-mismatch')).toEqual(['warning design-approval']);
    expect(found(evaluate({ 'phase-mismatch': 'error' }, lagging), 'phase-mismatch')).toEqual(['error design-approval']);
  });

  it('a node whose file is missing while artifact-missing is off is skipped, not passed over silently as done', () => {
    const result = evaluate({ 'artifact-missing': 'off' }, {});
    expect(node(result, 'requirements-definition')).toMatchObject({ status: 'skipped', outcome: 'skip', findings: [] });
  });
});
