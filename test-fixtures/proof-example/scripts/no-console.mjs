// Fails when a source file logs to the console: the greeter returns text, it never prints.
import { readdirSync, readFileSync } from 'node:fs';

const offenders = readdirSync('src').filter((name) => readFileSync(`src/${name}`, 'utf8').includes('console.'));
for (const name of offenders) console.error(`src/${name} writes to the console`);
console.log(`${offenders.length} file(s) write to the console`);
process.exit(offenders.length === 0 ? 0 : 1);
