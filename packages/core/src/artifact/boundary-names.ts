import type { Position } from '../diagnostic.js';
import { isPlaceholderText } from './content.js';
import type { ListEntry } from './types.js';

/** A trust boundary an upstream section names: an explicit id, a name, or both; where it is named. */
export interface Boundary {
  /** An explicit id such as `TB-2` or `AC3`: the strongest anchor. */
  readonly id?: string;
  /** A name (a short noun phrase), never a sentence. */
  readonly name?: string;
  readonly position: Position;
}

// Lead-ins of requirements templates that name a category, not a boundary. Their items are
// never boundaries; those under a boundary label (below) list boundaries one by one.
const CATEGORY_LABELS = new Set([
  'actors',
  'actors & trust',
  'actors and trust',
  'trust',
  'abuse cases',
  'misuse cases',
  'threats',
  'threat model',
  'data',
  'data classification',
  'data handled',
  'sensitive data',
  'mitigations',
  'controls',
  'assumptions',
  'residual risk',
  'residual risks',
  'out of scope',
  'non-goals',
  'open questions',
  'note',
  'notes',
  'references',
  'see also',
]);
const BOUNDARY_LABELS = new Set(['trust boundaries', 'trust boundary', 'boundaries', 'entry points', 'attack surface']);

// Words a noun phrase does not hold and a sentence (or an EARS criterion) does.
const SENTENCE_WORDS = new Set([
  'shall', 'must', 'should', 'will', 'would', 'may', 'might', 'can', 'cannot', 'could',
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'has', 'have', 'had', 'does', 'do', 'did',
  'not', 'never', 'no', 'when', 'if', 'then', 'while', 'whenever', 'unless', 'we', 'they',
]);
const MAX_NAME_WORDS = 6;
const MAX_NAME_LENGTH = 200;

// `TB-2`, `AC3`, `SEC-01`, `FR-001`, `NFR-3.1`: capitals, an optional hyphen, a number.
const ID = /^[A-Z]{2,6}-?\d{1,4}(?:\.\d{1,3})*$/;
// What separates a name from what is said about it: a colon, or a spaced dash.
const SEPARATOR = /:|\s[-–—]\s/;
const LEADING_ARTICLE = /^(?:the|a|an)\s+/i;
const PARENTHETICAL = /\([^()]*\)|\[[^[\]]*\]/g;
const TRAILING_PARENTHETICAL = /\s*(?:\([^()]*\)|\[[^[\]]*\])[\s\p{P}]*$/u;

/**
 * The boundaries a section's list items name. An item names one by its explicit id, its
 * lead-in (or first bold or code span), else its text up to a colon or dash — and only when
 * that is a name, not a sentence. A template's category label (`Actors & trust:`) names none;
 * under a boundary label (`Trust boundaries:`), the names after it and the items nested in it do.
 */
export function boundariesIn(items: readonly ListEntry[]): Boundary[] {
  return items.flatMap((item) => (item.under !== undefined && labelKind(item.under) === 'category' ? [] : boundariesOf(item)));
}

function boundariesOf(item: ListEntry): Boundary[] {
  const text = squash(item.text);
  if (text === '' || isPlaceholderText(text)) return [];
  const { id, rest } = splitId(text);
  const ownLead = item.lead === undefined ? undefined : squash(item.lead);
  const lead = id !== undefined && ownLead?.startsWith(id) ? ownLead.slice(id.length).replace(/^[\s:.\-–—)\]]+/, '') : ownLead;
  const head = lead !== undefined && lead !== '' ? lead : beforeSeparator(rest);
  const kind = labelKind(head);
  if (kind === 'category') return [];
  if (kind === 'boundary') {
    const after = rest.slice(rest.indexOf(head) + head.length).replace(/^[\s*_`:.\-–—]+/, '');
    const listed = after
      .replace(PARENTHETICAL, ';')
      .split(/[;,]|\band\b/)
      .map(nameOf)
      .filter((name): name is string => name !== undefined)
      .map((name) => ({ name, position: item.position }));
    return [...listed, ...item.children.flatMap(boundariesOf)];
  }
  const candidate = lead !== undefined && lead !== '' ? lead : item.marked !== undefined && item.marked !== id ? squash(item.marked) : beforeSeparator(rest);
  const name = nameOf(candidate);
  if (id === undefined && name === undefined) return [];
  return [{ ...(id !== undefined ? { id } : {}), ...(name !== undefined ? { name } : {}), position: item.position }];
}

function splitId(text: string): { id: string | undefined; rest: string } {
  const first = text.split(/\s/, 1)[0] ?? '';
  const bare = first.replace(/^[[(]/, '').replace(/[\]):.,–—-]+$/, '');
  if (!ID.test(bare)) return { id: undefined, rest: text };
  return { id: bare, rest: text.slice(first.length).replace(/^[\s:.\-–—]+/, '') };
}

function beforeSeparator(text: string): string {
  return text.split(SEPARATOR, 1)[0] ?? text;
}

function labelKind(text: string): 'category' | 'boundary' | undefined {
  if (text.length > MAX_NAME_LENGTH) return undefined;
  const label = stripTrailing(squash(text).replace(PARENTHETICAL, ' ')).replace(/\s+/g, ' ').trim().toLowerCase();
  if (CATEGORY_LABELS.has(label)) return 'category';
  if (BOUNDARY_LABELS.has(label)) return 'boundary';
  return undefined;
}

/** The phrase as a boundary name, or undefined when it is a sentence, a placeholder or empty. */
function nameOf(phrase: string): string | undefined {
  // Long text is no name, and the patterns below are only ever run on short text.
  if (phrase.length > MAX_NAME_LENGTH) return undefined;
  const squashed = squash(phrase);
  const name = stripTrailing(squashed.replace(TRAILING_PARENTHETICAL, '')).replace(LEADING_ARTICLE, '');
  if (name === '' || isPlaceholderText(name) || !/\p{L}/u.test(name)) return undefined;
  const words = name.split(' ');
  // Three words or more closed by a full stop read as a sentence.
  if (words.length > MAX_NAME_WORDS || (words.length >= 3 && /[.!?]$/.test(squashed))) return undefined;
  if (words.some((word) => SENTENCE_WORDS.has(word.toLowerCase().replace(/[^\p{L}]/gu, '')))) return undefined;
  return name;
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function stripTrailing(text: string): string {
  return text.replace(/[\s\p{P}]+$/u, '').trim();
}

/** A downstream text prepared for {@link mentions}: its words, case, emphasis and line breaks aside. */
export interface Mentionable {
  readonly text: string;
  /** Its words, in order. */
  readonly words: readonly string[];
  /** Where each word occurs. */
  readonly at: ReadonlyMap<string, readonly number[]>;
}

/** Prepare a text once for many {@link mentions} checks. */
export function mentionable(text: string): Mentionable {
  const words = wordsOf(text);
  // Indexed by the words themselves, once each: a stem's occurrences are found from its
  // inflections when asked for (see occurrences), not stored for every stem of every word.
  const at = new Map<string, number[]>();
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] as string;
    const seen = at.get(word);
    if (seen) seen.push(index);
    else at.set(word, [index]);
  }
  return { text, words, at };
}

// Where a word with this stem occurs: the stem itself, or the stem with one of the suffixes.
function occurrences(haystack: Mentionable, stem: string): readonly number[] {
  const found = [...(haystack.at.get(stem) ?? [])];
  for (const suffix of SUFFIXES) if (hasSuffix(stem + suffix, suffix)) found.push(...(haystack.at.get(stem + suffix) ?? []));
  return found;
}

/**
 * Whether a text names the boundary: its id, or the words of its name in order, any form of
 * each (`hash`, `hashes`, `hashed`), with at most one other word between two of them — so
 * "passwords are hashed" names "Password hashes".
 */
export function mentions(haystack: Mentionable, boundary: Boundary): boolean {
  if (boundary.id !== undefined && idPattern(boundary.id).test(haystack.text)) return true;
  if (boundary.name === undefined) return false;
  const run = wordsOf(boundary.name).map(stems);
  if (run.length === 0) return false;
  const matches = (index: number, word: readonly string[]) => index < haystack.words.length && stems(haystack.words[index] as string).some((stem) => word.includes(stem));
  const follows = (from: number, next: number): boolean => {
    if (next === run.length) return true;
    for (let index = from + 1; index <= from + 1 + MAX_GAP; index += 1) {
      if (matches(index, run[next] as readonly string[]) && follows(index, next + 1)) return true;
    }
    return false;
  };
  const starts = new Set((run[0] as readonly string[]).flatMap((stem) => occurrences(haystack, stem)));
  for (const index of starts) if (follows(index, 1)) return true;
  return false;
}

// At most this many other words between two words of a name.
const MAX_GAP = 1;

// Lower-case ASCII (most specs) has no letters or digits outside a-z and 0-9, and a plain class
// splits it in two thirds of the time of the Unicode one, into the same words.
const NON_ASCII = /[\u0080-\uffff]/;
const NOT_ASCII_WORD = /[^a-z0-9]+/;
const NOT_WORD = /[^\p{L}\p{N}]+/u;

// Words compared without case, punctuation or markup.
function wordsOf(text: string): string[] {
  const lower = text.toLowerCase();
  return lower.split(NON_ASCII.test(lower) ? NOT_WORD : NOT_ASCII_WORD).filter((word) => word !== '');
}

// A word and its inflections share a stem: `cache`/`caches`, `store`/`stored`, `sign`/`signing`.
const SUFFIXES = ['s', 'es', 'd', 'ed', 'ing'];
function stems(word: string): string[] {
  return [word, ...SUFFIXES.filter((suffix) => hasSuffix(word, suffix)).map((suffix) => word.slice(0, -suffix.length))];
}

function hasSuffix(word: string, suffix: string): boolean {
  return word.length - suffix.length >= 3 && word.endsWith(suffix);
}

// `TB-2` also matches `TB2` and `tb-2`, never `TB-21` or `XTB-2`.
function idPattern(id: string): RegExp {
  const [, letters, digits] = /^([A-Z]+)-?(.*)$/.exec(id) ?? [];
  return new RegExp(`(?<![\\p{L}\\p{N}])${letters}-?${(digits ?? '').replace(/\./g, '\\.')}(?![\\p{N}]|\\.\\d)`, 'iu');
}
