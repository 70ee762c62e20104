import type { Position } from '../diagnostic.js';

/**
 * Maps an offset in `text` to a 1-based line and column. yaml's own LineCounter misses the
 * line breaks inside a multi-line plain scalar, which put errors on lines that do not exist.
 */
export function lineIndex(text: string): (offset: number) => Position {
  const starts = [0];
  for (const match of text.matchAll(/\r\n|\r|\n/g)) starts.push(match.index + match[0].length);
  return (offset) => {
    const at = Math.max(0, Math.min(offset, text.length));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] as number) <= at) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: at - (starts[low] as number) + 1 };
  };
}
