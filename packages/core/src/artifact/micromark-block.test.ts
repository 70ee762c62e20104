import fc from 'fast-check';
import markdownIt, { type Token } from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../test-support/fuzz.js';
import { blockState, type ParseEnv } from './micromark-block.js';

// Where each line starts, as the tree's positions count lines: every `\n` starts one.
function lineStarts(src: string): number[] {
  const starts = [0];
  for (let at = src.indexOf('\n'); at !== -1; at = src.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

const md = markdownIt('commonmark');

describe('blockState', () => {
  it("finds markdown-it's lines and where every line starts, whatever the text", () => {
    // Lines of spaces, tabs and text, a last line of only whitespace, with and without a final line ending.
    const text = fc.array(fc.constantFrom(' ', '\t', '\n', 'a', '-', '>', '\u00a0', '\r'), { maxLength: 40 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(text, (src) => {
        const env: ParseEnv = { starts: [] };
        const tokens: Token[] = [];
        const own = new md.block.State(src, md, {}, tokens);
        const fast = blockState(new md.block.State('', md, env, tokens), src);
        expect([fast.src, fast.bMarks, fast.eMarks, fast.tShift, fast.sCount, fast.bsCount, fast.lineMax]).toEqual([own.src, own.bMarks, own.eMarks, own.tShift, own.sCount, own.bsCount, own.lineMax]);
        expect(env.starts).toEqual(lineStarts(src));
      }),
      fuzzRuns(process.env, 2000),
    );
  });
});
