import { describe, expect, it } from 'vitest';
import { extractFacts, parseArtifact } from './parse-artifact.js';
import { findSection } from './find-section.js';

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

describe('parseArtifact: tasks (more)', () => {
  it('reads nested tasks at every depth with their own line and column', () => {
    const text = ['- [x] parent', '  - [ ] child', '    1. [~] grandchild'].join('\n');
    expect(parseArtifact('t.md', text).tasks.map((t) => `${t.position.line}:${t.position.column} ${t.done} ${t.text}`)).toEqual([
      '1:1 true parent',
      '2:3 false child',
      '3:5 false grandchild',
    ]);
  });

  it('counts a box with no text after it: an unticked box is never dropped', () => {
    const text = ['- [ ]', '- [~]', '* [x]', '- [x] done', '- [ ]', '  text on the next line'].join('\n');
    expect(parseArtifact('t.md', text).tasks.map((t) => `${t.position.line} ${t.marker} ${t.done}`)).toEqual(['1   false', '2 ~ false', '3 x true', '4 x true', '5   false']);
  });

  it('does not take a plain list item, a link or a bracket mid-text for a task', () => {
    const text = ['- plain item', '- [link](http://example.com)', '- see [x] later', 'Paragraph [ ] text'].join('\n');
    expect(parseArtifact('t.md', text).tasks).toEqual([]);
  });

  it('ignores tasks in indented code and in HTML comments', () => {
    const text = ['Intro', '', '    - [ ] indented code', '', '<!--', '- [ ] commented', '-->', '- [x] real'].join('\n');
    expect(parseArtifact('t.md', text).tasks.map((t) => t.text)).toEqual(['real']);
  });

  it('counts a lone CR as a line ending, as CommonMark does', () => {
    const artifact = parseArtifact('t.md', '# A\r## B\r- [ ] t\r');
    expect([artifact.lineCount, artifact.tasks[0]?.position.line]).toEqual([4, 3]);
  });

  it('keeps counting tasks with CRLF line endings', () => {
    expect(parseArtifact('t.md', '- [ ] a\r\n- [x] b\r\n').tasks.map((t) => [t.position.line, t.done])).toEqual([
      [1, false],
      [2, true],
    ]);
  });
});

const titles = (text: string): string[] => parseArtifact('a.md', text).sections.map((s) => `${s.position.line}:${s.position.column} h${s.depth} ${s.title}`);

describe('parseArtifact: headings', () => {
  it('reads ATX headings at every level and trims closing #s', () => {
    const text = ['# One #', '## Two ##', '### Three', '#### Four ####', '##### Five', '###### Six ###'].join('\n');
    expect(titles(text)).toEqual(['1:1 h1 One', '2:1 h2 Two', '3:1 h3 Three', '4:1 h4 Four', '5:1 h5 Five', '6:1 h6 Six']);
  });

  it('reads setext headings of both levels', () => {
    expect(titles(['Top', '===', '', 'Second', '------'].join('\n'))).toEqual(['1:1 h1 Top', '4:1 h2 Second']);
  });

  it('does not take #tag, a seven-# line or an escaped # for a heading', () => {
    expect(titles(['#tag', '', '####### seven', '', '\\# escaped'].join('\n'))).toEqual([]);
  });

  it('counts headings indented by up to three spaces, not four', () => {
    expect(titles([' # One', '  ## Two', '   ### Three', '', '    #### code'].join('\n'))).toEqual(['1:2 h1 One', '2:3 h2 Two', '3:4 h3 Three']);
  });

  it('ignores headings inside ``` and ~~~ fences', () => {
    expect(titles(['```md', '# fenced', '```', '~~~', '## tilde', '~~~', '## Real'].join('\n'))).toEqual(['7:1 h2 Real']);
  });

  it('matches titles case-insensitively, ignoring closing #s, spacing and a trailing colon', () => {
    const artifact = parseArtifact('a.md', '## Security   Design: ##\nText.\n');
    expect(findSection(artifact, 'security design')?.position.line).toBe(1);
    expect(findSection(artifact, 'SECURITY DESIGN')?.empty).toBe(false);
    expect(findSection(artifact, 'Security')).toBeUndefined();
  });
});

const emptiness = (text: string): Record<string, boolean> =>
  Object.fromEntries(parseArtifact('a.md', text).sections.map((s) => [s.title, s.empty]));

describe('parseArtifact: empty sections', () => {
  it('is empty with nothing but whitespace', () => {
    expect(emptiness('## A\n\n   \n\t\n## B\ntext\n')).toEqual({ A: true, B: false });
  });

  it('is empty with only HTML comments, even several or unclosed', () => {
    expect(emptiness('## A\n<!-- fill me -->\n\n<!-- and me -->\n## B\n<!-- never closed\n')).toEqual({ A: true, B: true });
  });

  it('is empty with only <placeholder> prompts, TBD or TODO', () => {
    expect(emptiness('## A\n<describe the boundary>\n\n## B\nTBD\n## C\n- <item one>\n- <item two>\n## D\nTODO …\n')).toEqual({ A: true, B: true, C: true, D: true });
  });

  // An HTML line opens a CommonMark HTML block that runs to the next blank line, as on GitHub.
  it('is not empty when real HTML or text surrounds a placeholder', () => {
    expect(emptiness('## A\n<details><summary>Why</summary>Because.</details>\n\n## B\nThe <b>webhook</b> is signed.\n')).toEqual({ A: false, B: false });
  });

  it('is empty with only a blockquote of template guidance', () => {
    expect(emptiness('## A\n> Describe the trust boundaries here.\n> Name each one.\n')).toEqual({ A: true });
  });

  it('is empty with a table that has a header and no body rows, or only placeholder rows', () => {
    expect(emptiness('## A\n| risk | mitigation |\n|---|---|\n\n## B\n| risk | mitigation |\n|---|---|\n| <risk> | <mitigation> |\n')).toEqual({ A: true, B: true });
  });

  it('is not empty with a table that has a body row', () => {
    expect(emptiness('## A\n| risk | mitigation |\n|---|---|\n| replay | nonce |\n')).toEqual({ A: false });
  });

  it('is not empty with a fenced code block that holds code', () => {
    expect(emptiness('## A\n```\nrun()\n```\n## B\n```\n```\n')).toEqual({ A: false, B: true });
  });

  it('owns its subsections: a parent with written children is not empty', () => {
    const text = ['## Parent', '### Child', 'written', '## Sibling', '### Empty child', '<!-- -->'].join('\n');
    expect(emptiness(text)).toEqual({ Parent: false, Child: false, Sibling: true, 'Empty child': true });
  });

  it('ends at the next heading of the same or higher level only', () => {
    const sections = parseArtifact('a.md', ['## A', '### A.1', '- x', '# B', '- y'].join('\n')).sections;
    expect(sections.map((s) => `${s.title}: ${s.items.map((i) => i.text).join(',')}`)).toEqual(['A: x', 'A.1: x', 'B: y']);
  });
});

describe('parseArtifact: list entries', () => {
  it('keeps each item\'s text, the bold or code span it opens with, its first such span anywhere, and where it is', () => {
    const text = ['## Security considerations', '- **Webhook endpoint**: signed', '- `token store` at rest', '- Admin panel: behind **SSO**', '- plain'].join('\n');
    expect(parseArtifact('a.md', text).sections[0]?.items.map((i) => [i.position.line, i.text, i.lead, i.marked])).toEqual([
      [2, 'Webhook endpoint: signed', 'Webhook endpoint', 'Webhook endpoint'],
      [3, 'token store at rest', 'token store', 'token store'],
      [4, 'Admin panel: behind SSO', undefined, 'SSO'],
      [5, 'plain', undefined, undefined],
    ]);
  });

  it('keeps one level of nested items, and the subsection each list sits in', () => {
    const text = ['## Security', '- **Trust boundaries:**', '  - TB-1 queue', '    - deeper detail', '### Abuse cases', '- IF x THEN y'].join('\n');
    const items = parseArtifact('a.md', text).sections[0]?.items ?? [];
    expect(items.map((i) => [i.text, i.under, i.children.map((c) => [c.position.line, c.text, c.children.length])])).toEqual([
      ['Trust boundaries:', undefined, [[3, 'TB-1 queue', 0]]],
      ['IF x THEN y', 'Abuse cases', []],
    ]);
  });
});

describe('parseArtifact: tables', () => {
  it('reads rows as trimmed cells in header order, each with its line', () => {
    const text = ['# Log', '## Review cycles', '| # | type | outcome |', '|---|:---:|---|', '| 1 | self | zero |', '|2|critic| new findings |'].join('\n');
    const [table] = parseArtifact('a.md', text).tables;
    expect(table?.section).toBe('Review cycles');
    expect(table?.header).toEqual(['#', 'type', 'outcome']);
    expect(table?.rows.map((r) => [r.position.line, ...r.cells])).toEqual([
      [5, '1', 'self', 'zero'],
      [6, '2', 'critic', 'new findings'],
    ]);
  });

  it('associates each table with the heading above it, and none before the first heading', () => {
    const text = ['| a |', '|---|', '| 0 |', '', '## Phase transitions', '| from | to |', '|---|---|', '| design | tasks |', '', '## Verification results', '| check | result |', '|---|---|'].join('\n');
    expect(parseArtifact('a.md', text).tables.map((t) => [t.section, t.rows.length, t.position.line])).toEqual([
      [undefined, 1, 1],
      ['Phase transitions', 1, 6],
      ['Verification results', 0, 11],
    ]);
  });

  it('ignores table-like lines inside a fence', () => {
    expect(parseArtifact('a.md', '```\n| a | b |\n|---|---|\n| 1 | 2 |\n```\n').tables).toEqual([]);
  });
});

describe('parseArtifact: bounded worst cases', () => {
  it('stops at thousands of nested list items with an error at their line, in bounded time', () => {
    const deep = `${'- '.repeat(4_999)}[ ] x`;
    const artifact = parseArtifact('t.md', `# Tasks\n\n- [x] done\n${deep}\n${deep}\n`);
    expect(artifact.diagnostics.map((d) => `${d.line}:${d.column} ${d.ruleId} ${d.severity}`)).toEqual(['4:1 artifact-unreadable error']);
    expect(artifact.tasks.map((t) => t.text)).toEqual(['done']);
  });

  it('fails closed when the parser itself fails: an internal error, and nothing read that could pass a gate', () => {
    const facts = extractFacts('---\nstatus: approved\n---\n# Tasks\n\n- [x] done\n', () => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    expect(facts.diagnostics.map((d) => `${d.line}:${d.column} ${d.ruleId} ${d.severity}`)).toEqual(['1:1 internal-error error']);
    expect(facts).toMatchObject({ lineCount: 7, empty: false, frontMatter: undefined, sections: [], tasks: [], tables: [], statements: [] });
  });

  it('reads 40 nested lists, deeper than any spec goes, without a finding', () => {
    const artifact = parseArtifact('t.md', `${'- '.repeat(40)}[ ] deep\n`);
    expect(artifact.diagnostics).toEqual([]);
    expect(artifact.tasks.map((t) => t.text)).toEqual(['deep']);
  });
});
