import type { Artifact, Section } from './types.js';

/** Heading match is case-insensitive, ignores surrounding whitespace and trailing colons. */
export function normalizeTitle(title: string): string {
  return title.trim().replace(/[:\s]+$/, '').replace(/\s+/g, ' ').toLowerCase();
}

/** The first section whose heading matches `title`. */
export function findSection(artifact: Artifact, title: string): Section | undefined {
  const wanted = normalizeTitle(title);
  return artifact.sections.find((section) => normalizeTitle(section.title) === wanted);
}

/** The 1-based line of a section's heading, and the line of the next heading at its level or above (Infinity at the end). */
export function sectionSpan(artifact: Artifact, section: Section): { start: number; end: number } {
  const start = section.position.line;
  const next = artifact.sections.find((s) => s.position.line > start && s.depth <= section.depth);
  return { start, end: next ? next.position.line : Number.POSITIVE_INFINITY };
}
