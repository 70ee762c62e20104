import { dirname } from 'node:path';

/** The directory of the bundled CLI (`dist/`), or undefined when running from source. */
export function bundleDir(): string | undefined {
  // The launcher runs the CommonJS bundle with `__filename` set to the bundle's path.
  return typeof __filename === 'string' && __filename.endsWith('.cjs') ? dirname(__filename) : undefined;
}
