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
