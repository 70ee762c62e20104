import type { Artifact, Section } from './types.js';

// Whitespace the normalisation would change inside a title: a run of two, or any but a plain space.
const UNSQUASHED = /\s\s|[^\S ]/;

/** Heading match is case-insensitive, ignores surrounding whitespace and trailing colons. */
export function normalizeTitle(title: string): string {
  // Most titles are normalised but for their case: tested without copying them three times.
  const last = title.charCodeAt(title.length - 1);
  if (title !== '' && title.charCodeAt(0) !== 0x20 && last !== 0x20 && last !== 0x3a && !UNSQUASHED.test(title)) return title.toLowerCase();
  return title.trim().replace(/[:\s]+$/, '').replace(/\s+/g, ' ').toLowerCase();
}

// Each artifact's sections by normalised title, the first of each, built on the first lookup:
// gates ask for several sections of the same file, often one that is not there, and each
// lookup normalised every title again (decision 142). Kept on the sections themselves, which
// every artifact made from the same facts shares, under a key no enumeration or JSON sees. Not in
// a WeakMap: V8's young-generation collector holds a WeakMap's values alive whether or not their
// key is, so every work item's sections outlived it by a collection, and a report copied and
// promoted them (decision 187).
const BY_TITLE = Symbol('sections by title');
type Indexed = readonly Section[] & { [BY_TITLE]?: ReadonlyMap<string, Section> };

/** The first section whose heading matches `title`. */
export function findSection(artifact: Artifact, title: string): Section | undefined {
  const sections: Indexed = artifact.sections;
  let index = sections[BY_TITLE];
  if (index === undefined) {
    const built = new Map<string, Section>();
    for (const section of sections) {
      const key = normalizeTitle(section.title);
      if (!built.has(key)) built.set(key, section);
    }
    index = built;
    // Sections someone froze are indexed again on each lookup.
    if (Object.isExtensible(sections)) Object.defineProperty(sections, BY_TITLE, { value: index });
  }
  return index.get(normalizeTitle(title));
}

/** The 1-based line of a section's heading, and the line of the next heading at its level or above (Infinity at the end). */
export function sectionSpan(artifact: Artifact, section: Section): { start: number; end: number } {
  const start = section.position.line;
  const next = artifact.sections.find((s) => s.position.line > start && s.depth <= section.depth);
  return { start, end: next ? next.position.line : Number.POSITIVE_INFINITY };
}
