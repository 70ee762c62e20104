/** the-loop's version: printed by --version, written into SARIF and into every evidence record. */
export const VERSION = '0.1.0';
