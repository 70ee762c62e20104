// Writes schemas/harness-config.schema.json from the valibot schemas the CLI validates
// with (core's harnessConfigJsonSchema), so editors and the CLI agree on the file.
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
const target = `${root}schemas/harness-config.schema.json`;
await writeFile(target, `${JSON.stringify(core.harnessConfigJsonSchema(), null, 2)}\n`);
process.stdout.write('wrote schemas/harness-config.schema.json\n');
