import { parseYamlSource } from '@the-loop/core';
import { describe, expect, it } from 'vitest';
import { parseHooksConfig } from './hooks-config.js';

const parse = (text: string) => {
  const source = parseYamlSource('.the-loop/harness-config.yaml', text);
  if (!source.ok) throw new Error('bad yaml');
  return parseHooksConfig(source.source);
};

describe('parseHooksConfig', () => {
  it('defaults the cap to 3 and reads a configured one', () => {
    expect(parseHooksConfig(undefined)).toEqual({ ok: true, config: { noProgressCap: 3, stopDeadlineSeconds: 30 } });
    expect(parse('workflow: {}\n')).toEqual({ ok: true, config: { noProgressCap: 3, stopDeadlineSeconds: 30 } });
    expect(parse('hooks:\n  noProgressCap: 5\n')).toEqual({ ok: true, config: { noProgressCap: 5, stopDeadlineSeconds: 30 } });
  });

  it('reports a bad value or an unknown key at its line', () => {
    expect(parse('hooks:\n  noProgressCap: "5"\n')).toMatchObject({ ok: false, issues: [{ line: 2, message: expect.stringContaining('whole number') }] });
    expect(parse('hooks:\n  noProgresCap: 5\n')).toMatchObject({ ok: false, issues: [{ line: 2, message: expect.stringContaining('unknown key "noProgresCap"') }] });
    expect(parse('hooks: 3\n')).toMatchObject({ ok: false });
  });
});
