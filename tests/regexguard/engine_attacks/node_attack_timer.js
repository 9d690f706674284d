// node_attack_timer: times attacks on V8's irregexp, the way JavaScript code
// meets them (new RegExp(pattern, flags); exec for a search, String.replace
// with the g flag for all matches), in process CPU time. The growth rule is
// attack_timing.h's, written again here: grow n until one run costs 3 ms
// (or the input reaches 4 MB), compare with n/2, super-linear at a ratio of
// 2.8; anything else is measured once more at 15 ms a run.
//
// Reads JSON lines {"id", "pattern", "flags", "attack"} on standard input and
// writes one JSON line per input.
'use strict';
const readline = require('readline');

function cpuSeconds() {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

function timeOne(row) {
  const out = {id: row.id, engine: 'node'};
  const flags = (row.flags || '').replace(/[x]/g, '');
  const global = flags.includes('g');
  let re;
  try {
    re = new RegExp(row.pattern, flags);
  } catch (e) {
    out.error = 'does not compile: ' + e.message;
    return out;
  }
  const a = row.attack;
  const build = (n) => a.prefix + a.pump.repeat(n) + a.suffix;
  const time = (n) => {
    const subject = build(n);
    let best = 1e9;
    for (let i = 0; i < 3; ++i) {
      const start = cpuSeconds();
      if (global) {
        re.lastIndex = 0;
        subject.replace(re, '');
      } else {
        re.lastIndex = 0;
        re.exec(subject);
      }
      const spent = cpuSeconds() - start;
      best = Math.min(best, spent);
      if (spent > 0.5) break;
    }
    return best;
  };
  const pumpLength = Math.max(a.pump.length, 1);
  const fits = (n) => a.prefix.length + a.suffix.length + pumpLength * n < 4000000;
  const growUntil = (n, target) => {
    let seconds = time(n);
    while (seconds < target && fits(n)) {
      n += Math.max(1, Math.floor(seconds < target / 8 ? n / 2 : n / 8));
      seconds = time(n);
    }
    return [n, seconds];
  };
  let target = 0.003;
  let [n, seconds] = growUntil(1, target);
  let ratio = n >= 2 ? seconds / Math.max(time(Math.floor(n / 2)), 1e-9) : 0;
  if (!(seconds >= target && ratio >= 2.8)) {
    target = 0.015;
    [n, seconds] = growUntil(n, target);
    ratio = n >= 2 ? seconds / Math.max(time(Math.floor(n / 2)), 1e-9) : 0;
  }
  out.n = n;
  out.length = build(n).length;
  out.seconds = seconds;
  out.ratio = ratio;
  out.superlinear = seconds >= target && ratio >= 2.8;
  return out;
}

const lines = readline.createInterface({input: process.stdin});
lines.on('line', (line) => {
  if (!line.trim()) return;
  let row;
  try {
    row = JSON.parse(line);
  } catch (e) {
    console.log(JSON.stringify({error: 'bad input line'}));
    return;
  }
  console.log(JSON.stringify(timeOne(row)));
});
