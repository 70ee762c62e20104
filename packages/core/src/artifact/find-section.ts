import type { Artifact, Section } from './types.js';

/** Heading match is case-insensitive, ignores surrounding whitespace and trailing colons. */
export function normalizeTitle(title: string): string {
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
