// Writes schemas/harness-config.schema.json and schemas/evidence.schema.json from the valibot
// schemas the CLI validates with, so editors, other tools and the CLI agree on the files.
// Run after building the core: `node scripts/build.mjs && node scripts/json-schema.mjs`.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
let core;
try {
  core = await import(`${root}packages/core/dist/index.js`);
} catch (error) {
  process.stderr.write(`json-schema: build the core first (node scripts/build.mjs): ${error.message}\n`);
  process.exit(2);
}
for (const [name, schema] of [
  ['harness-config.schema.json', core.harnessConfigJsonSchema()],
  ['evidence.schema.json', core.evidenceRecordJsonSchema()],
]) {
  await writeFile(`${root}schemas/${name}`, `${JSON.stringify(schema, null, 2)}\n`);
  process.stdout.write(`wrote schemas/${name}\n`);
}
