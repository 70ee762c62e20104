/** the-loop's version: printed by --version, reported in SARIF, and bound into every evidence record. */
export const VERSION = '0.1.0';
