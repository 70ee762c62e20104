// Work items of real size for `pnpm bench` and for profiling: about 25 KB of markdown per item
// over four artifacts, written the way people and agents write specs — prose with emphasis, code
// spans and links, tables, nested task lists, fenced code, guidance blockquotes and front-matter.
// Deterministic: the same seed always writes the same bytes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WORDS = (
  'the invoice timer workspace owner member client rate export report session token request ' +
  'response endpoint queue worker retry backoff ledger entry payment refund currency rounding ' +
  'schema migration index cache policy role audit trail webhook signature secret rotation ' +
  'tenant boundary upload download archive reminder schedule deadline estimate budget project ' +
  'task approval review reviewer release flag rollout metric alert latency throughput error ' +
  'validation input output format field column row table page filter sort search count total ' +
  'must should never always only every each when after before while because unless within ' +
  'checks stores reads writes sends returns rejects accepts logs signs verifies renders builds'
).split(' ');
const NAMES = ['InvoiceService', 'RateTable', 'ExportWorker', 'AuditLog', 'SessionStore', 'WebhookSigner', 'PolicyCheck', 'LedgerWriter'];
const BOUNDARIES = ['Export endpoint', 'Stored files', 'Webhook receiver', 'Session cookie', 'Admin console', 'Payment callback', 'Upload parser', 'Public API'];

/** A small seeded PRNG (mulberry32): the corpus must be the same on every run. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function writer(seed) {
  const next = random(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const int = (min, max) => min + Math.floor(next() * (max - min + 1));
  const word = () => {
    const w = pick(WORDS);
    const roll = next();
    if (roll < 0.03) return `\`${pick(NAMES)}\``;
    if (roll < 0.05) return `**${w}**`;
    if (roll < 0.07) return `*${w}*`;
    if (roll < 0.08) return `[${w}](https://example.test/${w})`;
    return w;
  };
  const sentence = () => {
    const words = Array.from({ length: int(8, 18) }, word).join(' ');
    return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
  };
  const paragraph = (min = 2, max = 5) => Array.from({ length: int(min, max) }, sentence).join(' ').replace(/(.{70,90}?) /g, '$1\n');
  return { next, pick, int, sentence, paragraph };
}

function requirements(w, id, status, boundaries) {
  const out = [`---\nstatus: ${status}\nissue: ${id}\nupdated: 2026-03-${String(w.int(10, 28))}\n---\n`, `# Requirements: ${w.sentence().slice(0, 48)}\n`];
  out.push('## Problem\n', w.paragraph(3, 6), '', w.paragraph(2, 4), '');
  out.push('## User stories\n');
  for (let i = 1; i <= w.int(4, 7); i += 1) out.push(`${i}. As a ${w.pick(['owner', 'member', 'client'])}, I want ${w.sentence().toLowerCase()}`);
  out.push('', '## Acceptance criteria\n');
  for (let i = 1; i <= w.int(8, 12); i += 1) {
    out.push(`- **AC-${i}**: WHEN ${w.sentence().toLowerCase().slice(0, -1)} THEN the system ${w.sentence().toLowerCase()}`);
    if (w.next() < 0.3) out.push(`  - ${w.sentence()}`);
  }
  out.push('', '## Security considerations\n');
  for (const b of boundaries) out.push(`- **${b}**: ${w.sentence().toLowerCase()}`);
  out.push('', '## Non-functional requirements\n', '| Quality | Target | Measured by |', '|---|---|---|');
  for (let i = 0; i < w.int(4, 7); i += 1) out.push(`| ${w.pick(['latency', 'availability', 'throughput', 'cost'])} | p95 ≤ ${w.int(50, 900)} ms | \`${w.pick(NAMES)}\` metrics |`);
  out.push('', '## Out of scope\n', w.paragraph(1, 3), '', '## Open questions\n', `> ${w.sentence()}`, '', w.paragraph(2, 4), '');
  return out.join('\n');
}

function design(w, id, status, boundaries) {
  const out = [`---\nstatus: ${status}\nissue: ${id}\n---\n`, `# Design: ${w.sentence().slice(0, 48)}\n`];
  out.push('## Overview\n', w.paragraph(3, 6), '', w.paragraph(3, 6), '', '## Approach\n', w.paragraph(4, 7), '', w.paragraph(3, 5), '');
  out.push('## Components\n', '| Component | Responsibility | Owner |', '|---|---|---|');
  for (let i = 0; i < w.int(5, 9); i += 1) out.push(`| \`${w.pick(NAMES)}\` | ${w.sentence()} | ${w.pick(['billing', 'platform', 'web'])} |`);
  out.push('', '## Data model\n', '```ts');
  for (let i = 0; i < w.int(10, 20); i += 1) out.push(`  ${w.pick(WORDS)}${i}: ${w.pick(['string', 'number', 'Date', 'Money', 'boolean'])};`);
  out.push('```', '', w.paragraph(2, 4), '', '## Security design\n');
  for (const b of boundaries) out.push(`The ${b.toLowerCase()} ${w.sentence().toLowerCase()}`, '');
  out.push('## Error handling\n');
  for (let i = 0; i < w.int(5, 8); i += 1) out.push(`- ${w.sentence()}`);
  out.push('', '## Testing\n', w.paragraph(3, 5), '', '## Alternatives considered\n', `> ${w.sentence()}\n> ${w.sentence()}`, '', w.paragraph(3, 5), '', '## Rollout\n', w.paragraph(2, 4), '');
  return out.join('\n');
}

function tasks(w, id, openEvery) {
  const out = [`---\nstatus: approved\nissue: ${id}\n---\n`, `# Tasks: ${w.sentence().slice(0, 48)}\n`];
  let n = 0;
  for (let phase = 1; phase <= w.int(4, 6); phase += 1) {
    out.push(`## Phase ${phase}: ${w.sentence().slice(0, 40)}\n`);
    for (let t = 1; t <= w.int(4, 7); t += 1) {
      n += 1;
      out.push(`- [${n % openEvery === 0 ? ' ' : 'x'}] **${phase}.${t}** ${w.sentence()}`);
      for (let s = 0; s < w.int(0, 3); s += 1) out.push(`  - [x] ${w.sentence()}`);
      if (w.next() < 0.3) out.push(`  _Requirements: AC-${w.int(1, 9)}, AC-${w.int(1, 9)}_`);
    }
    out.push('');
  }
  return out.join('\n');
}

function executionLog(w, id, phase) {
  const out = [`---\nwork_item: ${id}\nphase: ${phase}\nupdated: 2026-03-${String(w.int(10, 28))}\n---\n`, `# Execution log: ${w.sentence().slice(0, 48)}\n`];
  out.push('## Phase transitions\n', '| From | To | Date |', '|---|---|---|', '| design | tasks-breakdown | 2026-02-23 |', '| tasks-breakdown | implementation | 2026-02-26 |', '');
  out.push('## Progress\n');
  for (let i = 0; i < w.int(8, 14); i += 1) out.push(`- 2026-03-${String(w.int(10, 28))}: ${w.sentence()} ${w.sentence()}`);
  out.push('', '## Verification results\n', '| Check | Result |', '|---|---|', `| unit tests | ${w.int(100, 900)} passed |`, '| lint | clean |', '');
  out.push('## Review cycles\n', '| Round | Type | Reviewer | Outcome |', '|---|---|---|---|');
  for (let i = 1; i <= w.int(1, 3); i += 1) out.push(`| ${i} | ${w.pick(['self', 'critic'])} | claude/opus | ${w.pick(['zero', 'new findings'])} |`);
  out.push('', '## Notes\n', w.paragraph(3, 6), '', w.paragraph(3, 6), '');
  return out.join('\n');
}

/**
 * The four artifacts of one generated work item, by file name, together about `bytes` long:
 * each artifact's body is written again (under its own headings) until the item is that large.
 */
export function workItemFiles(id, index, bytes = 25_000) {
  const w = writer(0x5eed + index);
  const boundaries = BOUNDARIES.filter(() => w.next() < 0.5).slice(0, 4);
  const makers = {
    'requirements.md': () => requirements(w, id, index % 2 === 0 ? 'draft' : 'approved', boundaries.length > 0 ? boundaries : [BOUNDARIES[0]]),
    'design.md': () => design(w, id, index % 3 === 0 ? 'draft' : 'approved', boundaries),
    'tasks.md': () => tasks(w, id, index % 4 === 0 ? 5 : 1000),
    'execution-log.md': () => executionLog(w, id, w.pick(['implementation', 'needs-review'])),
  };
  const files = Object.fromEntries(Object.entries(makers).map(([name, make]) => [name, make()]));
  const size = () => Object.values(files).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  for (let round = 0; size() < bytes; round += 1) {
    const [name, make] = Object.entries(makers)[round % 4];
    files[name] += `\n${make().replace(/^---\n[\s\S]*?\n---\n/, '')}`;
  }
  return files;
}

// Writing a large corpus spends its time making prose: items cycle through a pool of generated
// contents, each written with its own id so no two files have the same bytes.
const POOL = 64;

/** Write `count` generated work items of about `bytes` each under `dir/docs/specs`; returns `dir`. */
export function generateCorpus(dir, count, { bytes = 25_000, ids } = {}) {
  const specs = join(dir, 'docs/specs');
  const pool = new Map();
  for (let i = 0; i < count; i += 1) {
    const id = ids?.[i] ?? `item-${String(i).padStart(5, '0')}`;
    const slot = i % POOL;
    if (!pool.has(slot)) pool.set(slot, workItemFiles('@@ID@@', slot, bytes));
    const item = join(specs, id);
    mkdirSync(item, { recursive: true });
    for (const [name, text] of Object.entries(pool.get(slot))) writeFileSync(join(item, name), text.replaceAll('@@ID@@', id));
  }
  return dir;
}
