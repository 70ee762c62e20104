import { describe, expect, it } from 'vitest';
import { authorFromFrontMatter, isSameAuthor } from './author.js';

describe('author ≠ critic', () => {
  it('reads author {harness, model} from the execution log front-matter', () => {
    expect(authorFromFrontMatter({ author: { harness: 'claude', model: ' opus ' } })).toEqual({ harness: 'claude', model: 'opus' });
    expect(authorFromFrontMatter({ author: { harness: 'cursor' } })).toEqual({ harness: 'cursor', model: undefined });
  });

  it('records no author for a missing, scalar or harness-less author', () => {
    for (const data of [undefined, {}, { author: 'claude/opus' }, { author: { model: 'opus' } }, { author: ['claude'] }]) {
      expect(authorFromFrontMatter(data)).toBeUndefined();
    }
  });

  it('is the same author only for the same harness and model; two unset models are the same default', () => {
    const author = { harness: 'claude', model: 'opus' };
    expect(isSameAuthor({ harness: 'claude', model: 'opus' }, author)).toBe(true);
    expect(isSameAuthor({ harness: 'claude', model: 'sonnet' }, author)).toBe(false);
    expect(isSameAuthor({ harness: 'cursor', model: 'opus' }, author)).toBe(false);
    expect(isSameAuthor({ harness: 'claude' }, { harness: 'claude', model: undefined })).toBe(true);
    expect(isSameAuthor({ harness: 'claude' }, author)).toBe(false);
  });
});
