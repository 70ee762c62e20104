import { describe, expect, it } from 'vitest';
import { classify } from './micromark-inline.js';

describe('classify', () => {
  it('gives every ASCII character the class the Unicode patterns give it', () => {
    for (let code = 0; code < 128; code += 1) {
      const char = String.fromCharCode(code);
      const expected = /\s/.test(char) ? 'whitespace' : /\p{P}|\p{S}/u.test(char) ? 'punctuation' : 'other';
      expect([code, classify(code)]).toEqual([code, expected]);
    }
  });

  it('reads past either end of the text, and any other character, as the patterns do', () => {
    expect(classify(NaN)).toBe('whitespace');
    expect(classify(0xa0)).toBe('whitespace');
    expect(classify(0x2014)).toBe('punctuation');
    expect(classify(0x20ac)).toBe('punctuation');
    expect(classify(0xe9)).toBe('other');
  });
});
