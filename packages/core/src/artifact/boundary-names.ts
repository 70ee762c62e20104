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
// Patterns with Unicode property escapes are made on first use: V8 reads a property's ranges
// when a pattern is made, 30 to 50 µs of a start-up each, and ASCII text needs the ones below only
// for a name with a parenthetical.
let trailingParenthetical: RegExp | undefined;

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
  // A trailing parenthetical ends in a bracket, maybe followed by punctuation: none without one.
  const bare = squashed.includes(')') || squashed.includes(']') ? squashed.replace((trailingParenthetical ??= /\s*(?:\([^()]*\)|\[[^[\]]*\])[\s\p{P}]*$/u), '') : squashed;
  const name = stripTrailing(bare).replace(LEADING_ARTICLE, '');
  // ASCII text (most names) has no letters but A-Z and a-z: a plain class finds the same ones.
  const ascii = !NON_ASCII.test(name);
  if (name === '' || isPlaceholderText(name) || !(ascii ? ASCII_LETTER : (letter ??= /\p{L}/u)).test(name)) return undefined;
  const words = name.split(' ');
  // Three words or more closed by a full stop read as a sentence.
  if (words.length > MAX_NAME_WORDS || (words.length >= 3 && /[.!?]$/.test(squashed))) return undefined;
  const notLetters = ascii ? NOT_ASCII_LETTERS : (nonLetters ??= /[^\p{L}]/gu);
  if (words.some((word) => SENTENCE_WORDS.has(word.toLowerCase().replace(notLetters, '')))) return undefined;
  return name;
}

// Made on first use, as trailingParenthetical: only text beyond ASCII needs these.
let letter: RegExp | undefined;
const ASCII_LETTER = /[A-Za-z]/;
let nonLetters: RegExp | undefined;
const NOT_ASCII_LETTERS = /[^a-z]/g;

// Whitespace `squash` would change inside a text: a run of two, or any but a plain space.
const UNSQUASHED = /\s\s|[^\S ]/;

function squash(text: string): string {
  // Most names and items are squashed already: a test costs less than rebuilding them.
  return (UNSQUASHED.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
}

// What stripTrailing drops below 0x80: whitespace, and the characters Unicode counts as punctuation.
const ASCII_TRAILING = new Uint8Array(128);
for (const char of '\t\n\v\f\r !"#%&\'()*,-./:;?@[\\]_{}') ASCII_TRAILING[char.charCodeAt(0)] = 1;
// Made on first use, as trailingParenthetical.
let trailing: RegExp | undefined;

function stripTrailing(text: string): string {
  // Read back over ASCII, which most text ends in; the pattern judges any other character.
  let end = text.length;
  while (end > 0 && ASCII_TRAILING[text.charCodeAt(end - 1)] === 1) end -= 1;
  if (end > 0 && text.charCodeAt(end - 1) >= 0x80) return text.replace((trailing ??= /[\s\p{P}]+$/u), '').trim();
  return text.slice(0, end).trim();
}

/**
 * The boundaries a downstream text does not name, in their order. A text names a boundary by
 * its id, or by the words of its name in order, any form of each (`hash`, `hashes`, `hashed`),
 * with at most one other word between two of them — so "passwords are hashed" names "Password
 * hashes". Case, emphasis, punctuation and line breaks aside.
 */
export function unmentioned(text: string, boundaries: readonly Boundary[]): Boundary[] {
  let words: Words | undefined;
  let ascii: boolean | undefined;
  return boundaries.filter((boundary) => {
    if (boundary.id !== undefined && idPattern(boundary.id, (ascii ??= !NON_ASCII.test(text))).test(text)) return false;
    if (boundary.name === undefined) return true;
    const run = wordsOf(boundary.name).map(stems);
    if (run.length === 0) return true;
    words ??= wordsIn(text);
    return !startsAt(words, run);
  });
}

/**
 * A text whose words are found where they are, not split into an array: lower-case ASCII text
 * as it is (its words are the runs of a-z and 0-9, and most specs are such text), any other
 * text as its words joined by single spaces.
 */
interface Words {
  readonly chars: string;
  readonly ascii: boolean;
}

function wordsIn(text: string): Words {
  const lower = text.toLowerCase();
  return NON_ASCII.test(lower) ? { chars: wordsOf(text).join(' '), ascii: false } : { chars: lower, ascii: true };
}

function isWordChar(words: Words, at: number): boolean {
  const code = words.chars.charCodeAt(at);
  return words.ascii ? (code >= 97 && code <= 122) || (code >= 48 && code <= 57) : code !== 32;
}

// The end of the word that starts at `from`.
function wordEnd(words: Words, from: number): number {
  let end = from;
  while (end < words.chars.length && isWordChar(words, end)) end += 1;
  return end;
}

// Whether the name, its words given by their stems, starts at a word of the text. Every form
// of its first word begins with its shortest stem, so the text is searched for that once; a
// word found there is read whole and compared with the stems where it stands.
function startsAt(words: Words, run: readonly (readonly string[])[]): boolean {
  const first = run[0] as readonly string[];
  let prefix = first[0] as string;
  for (const stem of first) if (stem.length < prefix.length) prefix = stem;
  for (let at = words.chars.indexOf(prefix); at >= 0; at = words.chars.indexOf(prefix, at + 1)) {
    if (at > 0 && isWordChar(words, at - 1)) continue;
    const end = wordEnd(words, at + prefix.length);
    if (isFormOf(words.chars, at, end, first) && follows(words, run, end, 1)) return true;
  }
  return false;
}

// Whether the rest of a name's words, from `next` on, follow the text's word that ends at `from`,
// with at most MAX_GAP other words before each.
function follows(words: Words, run: readonly (readonly string[])[], from: number, next: number): boolean {
  if (next === run.length) return true;
  const wanted = run[next] as readonly string[];
  let at = from;
  for (let gap = 0; gap <= MAX_GAP; gap += 1) {
    while (at < words.chars.length && !isWordChar(words, at)) at += 1;
    if (at === words.chars.length) return false;
    const end = wordEnd(words, at);
    if (isFormOf(words.chars, at, end, wanted) && follows(words, run, end, next + 1)) return true;
    at = end;
  }
  return false;
}

// Whether the word at `chars[from, to)` shares a stem with a name's word, given by its stems:
// whether it is one of them, or one of three letters or more with a suffix. Compared where it
// stands, without copying it.
function isFormOf(chars: string, from: number, to: number, stemsOfWord: readonly string[]): boolean {
  const length = to - from;
  for (let index = 0; index < stemsOfWord.length; index += 1) {
    const stem = stemsOfWord[index] as string;
    if (length < stem.length || !chars.startsWith(stem, from)) continue;
    if (length === stem.length) return true;
    if (stem.length < 3) continue;
    const rest = length - stem.length;
    for (const suffix of SUFFIXES) if (suffix.length === rest && chars.startsWith(suffix, from + stem.length)) return true;
  }
  return false;
}

// At most this many other words between two words of a name.
const MAX_GAP = 1;

// Lower-case ASCII (most specs) has no letters or digits outside a-z and 0-9, and a plain class
// finds its words faster than the Unicode one, and the same words.
const NON_ASCII = /[\u0080-\uffff]/;
const ASCII_WORD = /[a-z0-9]+/g;
// Made on first use, as trailingParenthetical.
let notWord: RegExp | undefined;

/** A text's words, in order, as names are compared with them: without case, punctuation or markup. */
export function wordsOf(text: string): string[] {
  const lower = text.toLowerCase();
  if (NON_ASCII.test(lower)) return lower.split((notWord ??= /[^\p{L}\p{N}]+/u)).filter((word) => word !== '');
  return lower.match(ASCII_WORD) ?? [];
}

// A word and its inflections share a stem: `cache`/`caches`, `store`/`stored`, `sign`/`signing`.
const SUFFIXES = ['s', 'es', 'd', 'ed', 'ing'];
function stems(word: string): string[] {
  return [word, ...SUFFIXES.filter((suffix) => hasSuffix(word, suffix)).map((suffix) => word.slice(0, -suffix.length))];
}

function hasSuffix(word: string, suffix: string): boolean {
  return word.length - suffix.length >= 3 && word.endsWith(suffix);
}

// `TB-2` also matches `TB2` and `tb-2`, never `TB-21` or `XTB-2`. In ASCII text the letters and
// digits are a-z, A-Z and 0-9 and no other character folds to one of the id's: plain classes
// find the same ids as the Unicode ones, without their case folding over the whole text.
function idPattern(id: string, ascii: boolean): RegExp {
  const [, letters, digits] = /^([A-Z]+)-?(.*)$/.exec(id) ?? [];
  const number = (digits ?? '').replace(/\./g, '\\.');
  return ascii ? new RegExp(`(?<![A-Za-z0-9])${letters}-?${number}(?![0-9]|\\.\\d)`, 'i') : new RegExp(`(?<![\\p{L}\\p{N}])${letters}-?${number}(?![\\p{N}]|\\.\\d)`, 'iu');
}
