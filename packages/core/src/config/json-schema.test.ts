import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { evidenceRecordJsonSchema, harnessConfigJsonSchema } from './json-schema.js';
import { describe, expect, it } from 'vitest';

const committed = fileURLToPath(new URL('../../../../schemas/harness-config.schema.json', import.meta.url));

describe('schemas/evidence.schema.json', () => {
  it('is what the evidence record schema generates today (run `node scripts/build.mjs && node scripts/json-schema.mjs` to refresh it)', async () => {
    const path = fileURLToPath(new URL('../../../../schemas/evidence.schema.json', import.meta.url));
    expect(await readFile(path, 'utf8')).toBe(`${JSON.stringify(evidenceRecordJsonSchema(), null, 2)}\n`);
  });
});

describe('schemas/harness-config.schema.json', () => {
  it('is what the valibot schemas generate today (run `node scripts/build.mjs && node scripts/json-schema.mjs` to refresh it)', async () => {
    expect(await readFile(committed, 'utf8')).toBe(`${JSON.stringify(harnessConfigJsonSchema(), null, 2)}\n`);
  });

  it('covers workflow (spec dir, graph, harness and node time limit), reviews, hooks, github, notifications, verification, approvals, model routing and rules, and refuses any other key', () => {
    const schema = harnessConfigJsonSchema() as { properties: Record<string, { properties?: Record<string, unknown> }>; additionalProperties?: unknown };
    expect(Object.keys(schema.properties)).toEqual(['workflow', 'reviews', 'hooks', 'github', 'notifications', 'verification', 'approvals', 'tokenEconomy', 'rules']);
    expect(Object.keys(schema.properties['verification']?.properties ?? {})).toEqual(['checks', 'environmentFiles']);
    expect(schema.properties['approvals']?.properties?.['source']).toMatchObject({ enum: ['local', 'github'] });
    expect(Object.keys(schema.properties['hooks']?.properties ?? {})).toEqual(['noProgressCap', 'stopDeadlineSeconds']);
    expect(Object.keys(schema.properties['github']?.properties ?? {})).toEqual(expect.arrayContaining(['repo', 'port']));
    expect(Object.keys(schema.properties['workflow']?.properties ?? {})).toEqual(expect.arrayContaining(['specDir', 'graph', 'harness', 'timeoutSeconds']));
    expect(Object.keys(schema.properties['tokenEconomy']?.properties ?? {})).toEqual(['modelRouting']);
    expect(Object.keys(schema.properties['reviews']?.properties ?? {})).toEqual(
      expect.arrayContaining(['selfReviewCount', 'criticReviewCount', 'stopOnNoNewFindings', 'escalateOnRepeatFinding', 'sameModelCritic', 'cyclesSection', 'outcomes', 'critics']),
    );
    expect(Object.keys(schema.properties['rules']?.properties ?? {})).toEqual(expect.arrayContaining(['template-residue', 'boundary-unaddressed', 'baseline-grown']));
    expect(Object.keys(schema.properties['rules']?.properties ?? {})).not.toContain('internal-error');
    expect(schema.additionalProperties).toBe(false);
  });
});
