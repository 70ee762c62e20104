import { describe, expect, it } from 'vitest';
import { isPlaceholderText } from './content.js';
import { findSection } from './find-section.js';
import { parseArtifact } from './parse-artifact.js';

const securityDesign = (body: string) => findSection(parseArtifact('design.md', `# Design\n\n## Security design\n\n${body}\n\n## Testing\n\nUnit tests.\n`), 'Security design');

describe('template placeholders joined by punctuation', () => {
  it('treats `<boundary>: <control>` left from a template as empty', () => {
    const section = securityDesign('<!-- Say how each boundary is protected. -->\n\n<boundary>: <control>');
    expect(section?.empty).toBe(true);
    expect(section?.position).toEqual({ line: 3, column: 1 });
  });

  it('treats punctuation-only runs between placeholders as placeholder text', () => {
    expect(isPlaceholderText(': ')).toBe(true);
    expect(isPlaceholderText('<risk> — <mitigation>.')).toBe(true);
  });

  it('still counts a written boundary, a number or a word as content', () => {
    expect(securityDesign('**Reset tokens**: hashed and single use.')?.empty).toBe(false);
    expect(securityDesign('<boundary>: 42')?.empty).toBe(false);
    expect(isPlaceholderText('<boundary>: signed')).toBe(false);
  });
});
