import markdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { newToken } from './markdown-token.js';
import { markdownReader } from './micromark-block.js';

describe('newToken', () => {
  it("gives markdown-it's token: the same own properties in the same order, and its methods", () => {
    for (const [type, tag, nesting] of [['paragraph_open', 'p', 1], ['text', '', 0], ['em_close', 'em', -1]] as const) {
      const token = newToken(type, tag, nesting);
      const stock = new markdownIt.Token(type, tag, nesting);
      expect(Object.keys(token)).toEqual(Object.keys(stock));
      expect({ ...token }).toEqual({ ...stock });
      expect(token).toBeInstanceOf(markdownIt.Token);
      token.attrSet('id', 'a');
      expect(token.attrGet('id')).toBe('a');
    }
  });

  it('makes every token the reader returns, block and inline, a token of that shape', () => {
    const source = '# Title\n\n- [ ] a *task* with `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted [link](x)\n';
    const tokens = markdownReader().parse(source, { starts: [0] });
    const all = tokens.flatMap((token) => [token, ...(token.children ?? [])]);
    expect(all.map((token) => token.type)).toEqual(expect.arrayContaining(['heading_open', 'bullet_list_open', 'table_open', 'em_open', 'code_inline', 'link_open', 'text']));
    const keys = Object.keys(new markdownIt.Token('', '', 0));
    for (const token of all) {
      expect(Object.keys(token)).toEqual(keys);
      expect(token).toBeInstanceOf(markdownIt.Token);
    }
  });
});
