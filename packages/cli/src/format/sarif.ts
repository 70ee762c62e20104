import type { FailOn } from '@the-loop/hooks';
import type { Log, ReportingDescriptor, Result } from 'sarif';
import { RULE_IDS, RULES, type Diagnostic, type WorkItemResult } from '@the-loop/core';
import { sha256 } from '../workspace/digest.js';
import { levelOf, type Level } from './level.js';

/** Where code scanning links a rule when no other documentation URL is given (SARIF needs an absolute URI). */
export const DEFAULT_RULES_URL = 'urn:the-loop:rules';

/**
 * SARIF 2.1.0 for a set of checked work items, and findings about the repository as a whole
 * (a grown baseline): every rule in `rules[]`, stable fingerprints, baselined findings as notes
 * whose `baselineState` is `unchanged`.
 */
export function toSarif(results: readonly WorkItemResult[], options: { version: string; rulesUrl: string; failOn: FailOn }, repositoryFindings: readonly Diagnostic[] = []): Log {
  const rules: ReportingDescriptor[] = RULES.map(({ id, summary, severity }) => ({
    id,
    name: id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()).replace(/^[a-z]/, (c) => c.toUpperCase()),
    shortDescription: { text: summary },
    helpUri: `${options.rulesUrl}#${id}`,
    help: { text: `${summary} See the-loop's docs/rules.md#${id}.` },
    defaultConfiguration: { level: severity },
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
  for (const d of repositoryFindings) sarifResults.push(toResult(undefined, d, fingerprint(`${d.ruleId}\u0000${d.file}\u0000${d.message}`), d.severity === 'error' ? 'error' : 'warning'));
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

function toResult(workItem: string | undefined, d: Diagnostic, print: string, level: Level): Result {
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
    ...(d.baselined === true ? { baselineState: 'unchanged' as const } : {}),
    properties: { ...(workItem !== undefined ? { workItem } : {}), ...(d.node !== undefined ? { node: d.node } : {}) },
  };
}

function fingerprint(text: string): string {
  return sha256(text).slice(0, 32);
}
