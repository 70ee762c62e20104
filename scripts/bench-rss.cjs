// Preloaded by the benchmark into a measured process: reports its peak RSS when it exits.
const { writeSync } = require('node:fs');
process.on('exit', () => {
  const file = process.env.THE_LOOP_BENCH_RSS_FD;
  if (file) writeSync(Number(file), `${process.resourceUsage().maxRSS}\n`);
});
