import type { FailOn } from '@the-loop/hooks';
import type { Log, ReportingDescriptor, Result } from 'sarif';
import { RULE_IDS, RULES, type Diagnostic, type WorkItemResult } from '@the-loop/core';
import { sha256 } from '../workspace/digest.js';
import { levelOf, type Level } from './level.js';

/** Where code scanning links a rule when no other documentation URL is given (SARIF needs an absolute URI). */
export const DEFAULT_RULES_URL = 'urn:the-loop:rules';

/** What a SARIF document says about the tool: its version and where its rules are documented. */
export interface SarifOptions {
  readonly version: string;
  readonly rulesUrl: string;
}

/** The document with no results yet. */
function emptyLog(options: SarifOptions): Log {
  const rules: ReportingDescriptor[] = RULES.map(({ id, summary, severity }) => ({
    id,
    name: id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()).replace(/^[a-z]/, (c) => c.toUpperCase()),
    shortDescription: { text: summary },
    helpUri: `${options.rulesUrl}#${id}`,
    help: { text: `${summary} See the-loop's docs/rules.md#${id}.` },
    defaultConfiguration: { level: severity },
  }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'the-loop', semanticVersion: options.version, version: options.version, rules } },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The repository root.' } } },
        columnKind: 'unicodeCodePoints',
        results: [],
      },
    ],
  };
}

/**
 * SARIF 2.1.0 for a set of checked work items, and findings about the repository as a whole (a
 * grown baseline): every rule in `rules[]`, stable fingerprints, baselined findings as notes whose
 * `baselineState` is `unchanged`. The document as JSON.stringify lays it out, in pieces to write
 * one after the other: `findings` are the work items' findings in order as JSON lines ({@link sarifLines}),
 * a chunk of items at a time, numbered here; then the findings about the repository.
 */
export function* sarifText(options: SarifOptions, findings: Iterable<string | Uint8Array>, repositoryFindings: readonly Diagnostic[]): Generator<string> {
  const whole = `${JSON.stringify(emptyLog(options), null, 2)}\n`;
  // The results are the run's last field: only closing brackets follow them.
  const at = whole.lastIndexOf('"results": []') + '"results": ['.length;
  yield whole.slice(0, at);
  const numbering = new SarifNumbering();
  let count = 0;
  // Each result where it sits in the document: the fifth level, eight spaces in.
  const entry = (result: Result): string => `${count++ === 0 ? '' : ','}\n        ${JSON.stringify(result, null, 2).replaceAll('\n', '\n        ')}`;
  for (const text of findings) {
    let out = '';
    // A chunk read back from the spool is its UTF-8 bytes.
    for (const line of (typeof text === 'string' ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8')).split('\n')) if (line !== '') out += entry(numbering.result(JSON.parse(line) as SarifFinding));
    yield out;
  }
  let tail = '';
  for (const d of repositoryFindings) tail += entry(numbering.repository(d));
  yield `${tail}${count > 0 ? '\n      ' : ''}${whole.slice(at)}`;
}

/** A work item's findings for {@link sarifText}, a JSON line each: rendered by the thread that evaluated it. */
export function sarifLines(result: WorkItemResult, failOn: FailOn): string {
  let lines = '';
  for (const diagnostic of result.findings) {
    const finding: SarifFinding = { workItem: result.workItem, diagnostic, level: levelOf(result, diagnostic, failOn) };
    lines += `${JSON.stringify(finding)}\n`;
  }
  return lines;
}

/** A work item's finding as SARIF reports it: the item, the finding, and its level under `--fail-on`. */
interface SarifFinding {
  readonly workItem: string;
  readonly diagnostic: Diagnostic;
  readonly level: Level;
}

/**
 * Findings made SARIF results in the document's order. A fingerprint counts the findings before
 * it with the same rule, file and message, in every work item before it too (a finding on the
 * configuration file can recur in each): one numbering for the whole document.
 */
class SarifNumbering {
  private readonly seen = new Map<string, number>();

  result({ workItem, diagnostic: d, level }: SarifFinding): Result {
    const base = `${d.ruleId}\u0000${d.file}\u0000${d.message}`;
    const occurrence = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, occurrence);
    return toResult(workItem, d, fingerprint(`${base}\u0000${occurrence}`), level);
  }

  /** A finding about the repository as a whole, after every work item's. */
  repository(d: Diagnostic): Result {
    return toResult(undefined, d, fingerprint(`${d.ruleId}\u0000${d.file}\u0000${d.message}`), d.severity === 'error' ? 'error' : 'warning');
  }
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
