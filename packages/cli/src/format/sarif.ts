import type { FailOn } from '@the-loop/hooks';
import { createHash } from 'node:crypto';
import type { Log, ReportingDescriptor, Result } from 'sarif';
import { RULE_IDS, type Diagnostic, type RuleId, type WorkItemResult } from '@the-loop/core';
import { levelOf, type Level } from './level.js';

/** Where code scanning links a rule when no other documentation URL is given (SARIF needs an absolute URI). */
export const DEFAULT_RULES_URL = 'urn:the-loop:rules';

// One line per rule for code-scanning UIs; docs/rules.md has the full text.
const RULE_SUMMARIES: Record<RuleId, string> = {
  'artifact-missing': "A node's artifact is absent.",
  'artifact-ambiguous': 'More than one alternative of an artifact is present.',
  'artifact-unlocked': "An artifact's front-matter status is not approved where the gate needs it locked.",
  'artifact-empty': 'An artifact is empty.',
  'artifact-unreadable': 'An artifact cannot be read (binary, not UTF-8, too large, a broken link).',
  'front-matter-invalid': 'Front-matter is missing where required, unparseable or not a mapping.',
  'section-missing': 'A required heading is absent.',
  'section-empty': 'A required section holds nothing but whitespace, comments, placeholders or an empty table.',
  'tasks-incomplete': 'A task is not ticked.',
  'boundary-unaddressed': 'A trust boundary named upstream does not appear downstream.',
  'review-rounds-missing': "The execution log's Review cycles table lacks the rounds a node needs.",
  'phase-mismatch': "The execution log's phase disagrees with where the artifacts put the work item.",
  'phase-ahead-of-artifacts': 'The execution log claims a later phase while an upstream artifact is missing or unlocked.',
  'template-residue': 'Template text was pasted through untouched.',
  'approval-missing': "A human node's artifact has no recorded approval by an approver.",
  'approval-stale': 'An approval was recorded for a different digest than the file now has.',
  'graph-state-invalid': 'The recorded graph state cannot be read or does not fit the graph.',
  'internal-error': 'the-loop could not evaluate the gate; it fails closed.',
};

/** SARIF 2.1.0 for a set of checked work items: every rule in `rules[]`, stable fingerprints. */
export function toSarif(results: readonly WorkItemResult[], options: { version: string; rulesUrl: string; failOn: FailOn }): Log {
  const rules: ReportingDescriptor[] = RULE_IDS.map((id) => ({
    id,
    name: id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()).replace(/^[a-z]/, (c) => c.toUpperCase()),
    shortDescription: { text: RULE_SUMMARIES[id] },
    helpUri: `${options.rulesUrl}#${id}`,
    help: { text: `${RULE_SUMMARIES[id]} See the-loop's docs/rules.md#${id}.` },
    defaultConfiguration: { level: 'error' },
  }));
  const seen = new Map<string, number>();
  const sarifResults: Result[] = results.flatMap((result) =>
    result.findings.map((d) => {
      const base = `${d.ruleId}\u0000${d.file}\u0000${d.message}`;
      const occurrence = (seen.get(base) ?? 0) + 1;
      seen.set(base, occurrence);
      return toResult(result.workItem, d, fingerprint(`${base}\u0000${occurrence}`), levelOf(result, d, options.failOn));
    }),
  );
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'the-loop', semanticVersion: options.version, version: options.version, rules } },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The repository root.' } } },
        columnKind: 'unicodeCodePoints',
        results: sarifResults,
      },
    ],
  };
}

function toResult(workItem: string, d: Diagnostic, print: string, level: Level): Result {
  return {
    ruleId: d.ruleId,
    ruleIndex: RULE_IDS.indexOf(d.ruleId),
    level,
    message: { text: d.fix ? `${d.message} Fix: ${d.fix}` : d.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: d.file.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' },
          ...(d.line !== undefined ? { region: { startLine: d.line, startColumn: d.column ?? 1 } } : {}),
        },
      },
    ],
    // Line numbers are left out so a finding keeps its identity when text above it moves.
    partialFingerprints: { 'theLoopFinding/v1': print },
    properties: { workItem, ...(d.node !== undefined ? { node: d.node } : {}) },
  };
}

function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}
