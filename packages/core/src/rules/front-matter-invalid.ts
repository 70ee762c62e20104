import type { Diagnostic, Position } from '../diagnostic.js';
import { check, verified } from '../evidence/examples.js';
import { defineRule, oneNodeGraph, report, type Rule, type RuleExamples } from './rule.js';

const TOP: Position = { line: 1, column: 1 };

// Front-matter is unparseable, not a mapping, never closed, lacks a value a `frontMatter:`
// predicate asks for, or (in the execution log) names a phase the graph does not have.
export const rule: Rule = defineRule({
  id: 'front-matter-invalid',
  summary: 'Front-matter is missing where required, unparseable or not a mapping.',
  predicates: {
    frontMatter: (expected, ctx) => {
      const { artifact } = ctx;
      if (!artifact) return [];
      return Object.entries(expected).flatMap(([key, value]) => {
        const actual = artifact.frontMatter?.data[key];
        if (actual === value) return [];
        return [
          report(rule, {
            message: `${ctx.artifactName} front-matter \`${key}\` is ${actual === undefined ? 'absent' : `"${String(actual)}"`}; this gate needs "${String(value)}".`,
            file: artifact.path,
            position: artifact.frontMatter?.positions[key] ?? artifact.frontMatter?.position ?? TOP,
            node: ctx.node.id,
            expected: `${key}: ${String(value)}`,
            actual: actual === undefined ? `no ${key}` : `${key}: ${String(actual)}`,
            fix: `Set \`${key}: ${String(value)}\` once the node's work is really done.`,
          }),
        ];
      });
    },
    // A testing plan whose verification block cannot be used leaves the checks as declared, and says so.
    checksPass: (_value, ctx) => ctx.verification().plan.problems.map((d) => ({ ...d, node: ctx.node.id })),
  },
});

/** A file that opens front-matter with `---` on its first line and never closes it. */
export function unclosedFrontMatter(path: string, text: string): Diagnostic[] {
  if (!/^---[ \t]*(\r\n|\r|\n|$)/.test(text)) return [];
  return [report(rule, { message: 'Front-matter is opened with `---` on line 1 but never closed.', file: path, position: TOP, fix: 'Close the front-matter with a second `---` line.' })];
}

/** A YAML syntax error in front-matter, at its place in the file. */
export function frontMatterNotYaml(path: string, reason: string, position: Position): Diagnostic {
  return report(rule, { message: `Front-matter is not valid YAML: ${reason}`, file: path, position, fix: 'Correct the YAML between the leading `---` lines.' });
}

/** Front-matter that parses to something other than a mapping (a list, a scalar). */
export function frontMatterNotMapping(path: string, position: Position): Diagnostic {
  return report(rule, {
    message: 'Front-matter must be a mapping of keys to values.',
    file: path,
    position,
    expected: 'a YAML mapping (key: value lines)',
    fix: 'Write the front-matter as `key: value` lines.',
  });
}

/** Front-matter whose YAML parses but cannot be turned into data (an alias bomb, a cycle). */
export function frontMatterUnusable(path: string, reason: string, position: Position): Diagnostic {
  return report(rule, { message: `Front-matter cannot be read: ${reason}`, file: path, position });
}

/** An execution log whose `phase:` is none of the graph's phases. */
export function unknownPhase(path: string, phase: string, position: Position, phases: readonly string[]): Diagnostic {
  return report(rule, {
    message: `The execution log's phase "${phase}" is not a phase of the lifecycle graph.`,
    file: path,
    position,
    expected: `one of: ${['not-started', ...phases].join(', ')}`,
    actual: phase,
    fix: 'Set `phase:` to the phase the work item is really in.',
  });
}

/** A testing plan's `verification:` block that cannot be used: the plan then changes nothing. */
export function verificationPlanInvalid(path: string, problem: string, position: Position): Diagnostic {
  return report(rule, {
    message: `The testing plan's verification block is invalid: ${problem}.`,
    file: path,
    position,
    fix: 'Correct the `verification:` front-matter of testing-plan.md (see docs/verification.md); until then the project\'s declared checks apply unchanged.',
  });
}

/** Where the rule reports, and where it does not, on small work items: rules.test.ts runs them. */
export function examples(): RuleExamples {
  const DONE_GRAPH = oneNodeGraph('produces: design.md, gate: [{frontMatter: {reviewed: true}}]');

  return {
    notOk: [
      { title: 'front-matter that is not valid YAML', files: { 'requirements.md': '---\nstatus: [draft\n---\n# Requirements\n' }, findings: ['requirements.md:2:15'] },
      { title: 'front-matter opened and never closed', files: { 'requirements.md': '---\nstatus: draft\n# Requirements\n' }, findings: ['requirements.md:1:1'] },
      { title: 'a frontMatter: predicate that does not hold', graph: DONE_GRAPH, files: { 'design.md': '---\nreviewed: false\n---\n# Design\n' }, findings: ['design.md:2:11'] },
      {
        title: 'a testing plan that skips a check without saying why, at the value',
        graph: oneNodeGraph('gate: [{checksPass: true}]'),
        files: { 'testing-plan.md': '---\nverification:\n  skip:\n    unit: TBD\n---\n# Testing plan\n' },
        input: verified(check('unit')),
        findings: ['testing-plan.md:4:11'],
      },
      { title: 'an execution-log phase the graph does not have', files: { 'requirements.md': '# Requirements\n', 'execution-log.md': '---\nphase: shipping\n---\n# Log\n' }, findings: ['execution-log.md:2:8'] },
    ],
    ok: [
      { title: 'a mapping between two `---` lines', files: { 'requirements.md': '---\nstatus: draft\n---\n# Requirements\n' } },
      { title: 'a testing plan that sets what a declared check covers', graph: oneNodeGraph('gate: [{checksPass: true}]'), files: { 'testing-plan.md': '---\nverification:\n  checks:\n    - {use: unit, covers: [AC1]}\n---\n# Testing plan\n' }, input: verified(check('unit')) },
      { title: 'a frontMatter: predicate that holds', graph: DONE_GRAPH, files: { 'design.md': '---\nreviewed: true\n---\n# Design\n' } },
    ],
  };
}
