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
// lookup normalised every title again (decision 142). Keyed by the sections themselves, which
// every artifact made from the same facts shares.
const byTitle = new WeakMap<readonly Section[], Map<string, Section>>();

/** The first section whose heading matches `title`. */
export function findSection(artifact: Artifact, title: string): Section | undefined {
  let index = byTitle.get(artifact.sections);
  if (index === undefined) {
    index = new Map();
    for (const section of artifact.sections) {
      const key = normalizeTitle(section.title);
      if (!index.has(key)) index.set(key, section);
    }
    byTitle.set(artifact.sections, index);
  }
  return index.get(normalizeTitle(title));
}

/** The 1-based line of a section's heading, and the line of the next heading at its level or above (Infinity at the end). */
export function sectionSpan(artifact: Artifact, section: Section): { start: number; end: number } {
  const start = section.position.line;
  const next = artifact.sections.find((s) => s.position.line > start && s.depth <= section.depth);
  return { start, end: next ? next.position.line : Number.POSITIVE_INFINITY };
}
