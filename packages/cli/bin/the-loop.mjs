#!/usr/bin/env node
// Thin launcher: the CLI is bundled into dist/ so start-up stays near `node -e ''`.
import('../dist/main.mjs').then(
  (cli) => cli.main(process.argv.slice(2)),
  (error) => {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND') {
      process.stderr.write('the-loop: the CLI is not built yet; run `pnpm build` at the repository root.\n');
    } else {
      process.stderr.write(`the-loop: internal error while loading: ${error && error.stack ? error.stack : error}\n`);
    }
    process.exitCode = 2;
  },
);
