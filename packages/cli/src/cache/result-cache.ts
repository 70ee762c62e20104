import { join } from 'node:path';
import { FACTS_JSON_FORMAT, PARSER_VERSION, RULE_IDS, type BaselineCounts, type Diagnostic, type GateOutcome, type NodeResult, type NodeStatus, type ReportInput, type WorkItemInput, type WorkItemResult } from '@the-loop/core';
import { bundleIdentity } from '../bundle-dir.js';
import { LOCAL_DIR } from '../state/local-state.js';
import { VERSION } from '../version.js';
import { digestReadFrom, sha256 } from '../workspace/digest.js';
import { readDigestsOf } from '../workspace/read-work-item.js';
import { loadRuntimeConfig } from '../workspace/runtime-config.js';
import type { KeptResult, Repo, ResultCache } from '../workspace/repo.js';
import { bucketStore } from './buckets.js';

/** Where report items are kept, beside the artifact cache. */
export const RESULTS_DIR = `${LOCAL_DIR}/cache/results`;

// The form of an entry and of the key; a change to either makes every entry another's.
const RESULT_FORMAT = 1;
// An entry is one work item's report entry, a few kilobytes: 256 buckets of 256 KiB, 64 MiB in all.
const BUCKET_BYTES = 256 * 1024;
const ENTRY_BYTES = 256 * 1024;
const OWN_FILE = /^(?:[0-9a-f]{64}\.json|\.[0-9a-f]{64}\.json\.\d+\.[0-9a-f]+\.tmp)$/;

/**
 * The result cache in `.the-loop/local/cache/results/`. An entry is read only when its key is
 * that of the inputs read now, so it never changes a report, only how fast it comes; an entry that
 * cannot be read, is corrupt or is of another key is ignored and written again.
 */
export function resultCache(root: string): ResultCache {
  const store = bucketStore(root, join(root, RESULTS_DIR), { ownFile: OWN_FILE, bucketBytes: BUCKET_BYTES, entryBytes: ENTRY_BYTES });
  return {
    key: resultKey,
    read(key, id) {
      const bytes = store.read(key.slice(0, 2), `${key}.json`);
      if (bytes === undefined) return undefined;
      try {
        const entry = JSON.parse(bytes.toString('utf8')) as { key?: unknown; item?: unknown };
        return entry.key === key && isReportInput(entry.item, id) ? entry.item : undefined;
      } catch {
        return undefined;
      }
    },
    async write(key, item) {
      const data = Buffer.from(JSON.stringify({ key, item }), 'utf8');
      await store.write(key.slice(0, 2), `${key}.json`, data).catch(() => undefined);
    },
    resultKey: (repo, input) => keyOf(repo, input, WHOLE),
    readResult(key, id) {
      const bytes = store.read(key.slice(0, 2), `${key}.json`);
      if (bytes === undefined) return undefined;
      try {
        const entry = JSON.parse(bytes.toString('utf8')) as { key?: unknown; result?: unknown; lineDigests?: unknown };
        return entry.key === key ? keptOf(entry, id) : undefined;
      } catch {
        return undefined;
      }
    },
    async writeResult(key, { result, lineDigests }) {
      const kept = keptResult(result);
      if (kept === undefined) return;
      const data = Buffer.from(JSON.stringify({ key, result: kept, lineDigests }), 'utf8');
      await store.write(key.slice(0, 2), `${key}.json`, data).catch(() => undefined);
    },
  };
}

// What a whole result's key has in place of a report entry's baseline counts: none applies to it.
const WHOLE = Symbol('a work item\'s whole result, before any baseline');

// What every work item of a run shares in its key: the code, the configuration and the baseline's
// counts (or, for a whole result, that none applies).
const runParts = new WeakMap<Repo, Map<BaselineCounts | undefined | typeof WHOLE, string>>();

/**
 * SHA-256 over a canonical encoding of everything `evaluateWorkItem` and `applyBaseline` read:
 * the code that evaluates (the CLI's version and bundle, the parser and the facts' form), the
 * compiled configuration and the runtime configuration, the baseline's counts (what applying it
 * reads: its messages change no result), and the work item's whole
 * input, with each artifact's contents stood for by the SHA-256 of its bytes. The input is
 * encoded by walking it, not by naming its fields: a field added later is keyed without a
 * change here, and a value the walk does not know how to encode (a function, a class instance,
 * a getter) makes the item unkeyable, so it is evaluated and not kept.
 */
export function resultKey(repo: Repo, input: WorkItemInput, accepted: BaselineCounts | undefined): string | undefined {
  return keyOf(repo, input, accepted);
}

// A report entry's key, or (with WHOLE) a whole result's: the two kinds never share one.
function keyOf(repo: Repo, input: WorkItemInput, accepted: BaselineCounts | undefined | typeof WHOLE): string | undefined {
  try {
    let byBaseline = runParts.get(repo);
    if (!byBaseline) {
      byBaseline = new Map();
      runParts.set(repo, byBaseline);
    }
    let run = byBaseline.get(accepted);
    if (run === undefined) {
      const kind = accepted === WHOLE ? 'result' : 'report';
      const code = [RESULT_FORMAT, kind, VERSION, bundleIdentity(), PARSER_VERSION, FACTS_JSON_FORMAT];
      run = sha256(encode([code, repo.config, loadRuntimeConfig(repo), accepted === WHOLE ? null : (accepted ?? null)]));
      byBaseline.set(accepted, run);
    }
    return sha256(`${run}\n${encode(input)}`);
  } catch {
    return undefined;
  }
}

class Unkeyable extends Error {}

/**
 * A value as text no other value gives: strings quoted, every container tagged, `undefined`
 * and an absent key told apart, object keys in their order (two orders are two keys, a miss
 * at worst). What was read from bytes (an artifact's contents, the compiled configuration) is
 * the SHA-256 of those bytes; approval digests, which are a function of a file's name and bytes,
 * are their names.
 */
export function encode(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Object.is(value, -0) ? '-0' : Number.isFinite(value) ? String(value) : `#${String(value)}`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'u';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        // Holes and properties beside the elements are nothing the walk can key either.
        if (Object.getPrototypeOf(value) !== Array.prototype || Object.keys(value).length !== value.length) throw new Unkeyable();
        let out = '[';
        for (let i = 0; i < value.length; i += 1) out += `${i === 0 ? '' : ','}${encode(value[i])}`;
        return `${out}]`;
      }
      const digest = digestReadFrom(value);
      if (digest !== undefined) return `F${JSON.stringify(digest)}`;
      const names = readDigestsOf(value);
      if (names !== undefined) return `D${encode(names)}`;
      // Plain loops and string appends: this runs for every work item of a report, mostly before V8 optimises it.
      const proto = Object.getPrototypeOf(value) as unknown;
      let first = true;
      if (proto === Map.prototype) {
        let out = 'M[';
        for (const [k, v] of value as Map<unknown, unknown>) {
          out += `${first ? '' : ','}${encode(k)}:${encode(v)}`;
          first = false;
        }
        return `${out}]`;
      }
      if (proto !== Object.prototype && proto !== null) throw new Unkeyable();
      let out = proto === null ? 'N{' : '{';
      // Every own key: one that is a symbol, not enumerable or a getter is nothing the walk can key.
      for (const name of Reflect.ownKeys(value)) {
        const property = Object.getOwnPropertyDescriptor(value, name) as PropertyDescriptor;
        if (typeof name !== 'string' || property.enumerable !== true || !('value' in property)) throw new Unkeyable();
        out += `${first ? '' : ','}${JSON.stringify(name)}:${encode(property.value)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw new Unkeyable();
  }
}

const RULES = new Set<string>(RULE_IDS);
const DIAGNOSTIC_KEYS = new Set(['ruleId', 'severity', 'message', 'file', 'line', 'column', 'node', 'expected', 'actual', 'fix', 'url', 'baselined']);
const OPTIONAL_TEXT = ['node', 'expected', 'actual', 'fix'] as const;
const ITEM_KEYS = new Set(['workItem', 'currentNode', 'ok', 'findings', 'artifacts', 'logPhase']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const hasOnly = (value: Record<string, unknown>, keys: ReadonlySet<string>): boolean => Object.keys(value).every((key) => keys.has(key));
const textOrNull = (value: unknown): boolean => value === null || typeof value === 'string';
const absentOr = (value: unknown, type: 'string' | 'number'): boolean => value === undefined || typeof value === type;

/** Whether an entry's item is a report entry for `id` the report can print: anything else is no entry. */
function isReportInput(value: unknown, id: string): value is ReportInput {
  if (!isRecord(value) || !hasOnly(value, ITEM_KEYS)) return false;
  if (value['workItem'] !== id || !textOrNull(value['currentNode']) || typeof value['ok'] !== 'boolean' || !textOrNull(value['logPhase'])) return false;
  const artifacts = value['artifacts'];
  if (!isRecord(artifacts) || Object.hasOwn(artifacts, '__proto__')) return false;
  for (const count of Object.values(artifacts)) if (!isRecord(count) || !hasOnly(count, STATUS_KEYS) || !textOrNull(count['status'])) return false;
  const findings = value['findings'];
  return Array.isArray(findings) && findings.every(isDiagnostic);
}

const STATUS_KEYS = new Set(['status']);
const NODE_KEYS = new Set(['node', 'status', 'outcome', 'findings']);
const NODE_STATUSES = new Set<string>(['passed', 'skipped', 'current', 'reached', 'pending'] satisfies NodeStatus[]);
const OUTCOMES = new Set<string>(['pass', 'block', 'wait', 'skip'] satisfies GateOutcome[]);

/**
 * A whole result as kept: each node's findings are the result's own findings (the same objects,
 * which applying a baseline relies on), so they are kept as their places in the result's list.
 * Undefined for a result whose nodes hold a finding the list does not: nothing is kept then.
 */
function keptResult(result: WorkItemResult): unknown {
  const places = new Map(result.findings.map((finding, at) => [finding, at]));
  const nodes = [];
  for (const node of result.nodes) {
    const findings = node.findings.map((finding) => places.get(finding));
    if (findings.some((at) => at === undefined)) return undefined;
    nodes.push({ ...node, findings });
  }
  return { ...result, nodes };
}

const LINE_DIGEST = /^[0-9a-f]{16}$/;

/** What an entry keeps: the whole result, its nodes' findings the result's own again, and a line digest for each finding; undefined unless it is of the right shape. */
function keptOf(entry: { result?: unknown; lineDigests?: unknown }, id: string): KeptResult | undefined {
  const result = resultOf(entry.result, id);
  const digests = entry.lineDigests;
  if (result === undefined || !Array.isArray(digests) || digests.length !== result.findings.length) return undefined;
  if (!digests.every((digest) => typeof digest === 'string' && LINE_DIGEST.test(digest))) return undefined;
  return { result, lineDigests: digests as string[] };
}

function resultOf(value: unknown, id: string): WorkItemResult | undefined {
  if (!isRecord(value)) return undefined;
  const { nodes, ...item } = value;
  if (!isReportInput(item, id) || !Array.isArray(nodes)) return undefined;
  const findings = item.findings;
  const place = (at: unknown): at is number => Number.isSafeInteger(at) && (at as number) >= 0 && (at as number) < findings.length;
  const read: NodeResult[] = [];
  for (const node of nodes as unknown[]) {
    if (!isRecord(node) || !hasOnly(node, NODE_KEYS)) return undefined;
    const { node: name, status, outcome, findings: places } = node;
    if (typeof name !== 'string' || typeof status !== 'string' || !NODE_STATUSES.has(status)) return undefined;
    if (outcome !== undefined && (typeof outcome !== 'string' || !OUTCOMES.has(outcome))) return undefined;
    if (!Array.isArray(places) || !places.every(place)) return undefined;
    read.push({ ...(node as unknown as NodeResult), findings: places.map((at) => findings[at] as Diagnostic) });
  }
  // In the order the entry holds its fields, as the result it was written from did.
  return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, name === 'nodes' ? read : field])) as unknown as WorkItemResult;
}

function isDiagnostic(value: unknown): value is Diagnostic {
  if (!isRecord(value) || !hasOnly(value, DIAGNOSTIC_KEYS)) return false;
  if (typeof value['ruleId'] !== 'string' || !RULES.has(value['ruleId'])) return false;
  if (value['severity'] !== 'error' && value['severity'] !== 'warning') return false;
  if (typeof value['message'] !== 'string' || typeof value['file'] !== 'string' || typeof value['url'] !== 'string') return false;
  if (!absentOr(value['line'], 'number') || !absentOr(value['column'], 'number')) return false;
  if (value['baselined'] !== undefined && value['baselined'] !== true) return false;
  return OPTIONAL_TEXT.every((key) => absentOr(value[key], 'string'));
}
