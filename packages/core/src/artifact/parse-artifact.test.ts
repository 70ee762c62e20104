import { describe, expect, it } from 'vitest';
import { parseArtifact } from './parse-artifact.js';

describe('parseArtifact: tasks', () => {
  it('counts every list style and treats any marker but x/X as not done', () => {
    const text = ['- [x] done', '* [ ] open star', '+ [~] partial plus', '1. [ ] ordered dot', '2) [/] ordered paren', '- [X] done upper', '  - [-] nested dash'].join('\n');
    const tasks = parseArtifact('t.md', text).tasks;
    expect(tasks.map((t) => [t.position.line, t.marker, t.done])).toEqual([
      [1, 'x', true],
      [2, ' ', false],
      [3, '~', false],
      [4, ' ', false],
      [5, '/', false],
      [6, 'x', true],
      [7, '-', false],
    ]);
  });

  it('ignores task-like lines inside ``` and ~~~ fences', () => {
    const text = ['```', '- [ ] fenced', '```', '~~~', '- [ ] tilde fenced', '~~~', '- [ ] real'].join('\n');
    expect(parseArtifact('t.md', text).tasks.map((t) => t.text)).toEqual(['real']);
  });
});
