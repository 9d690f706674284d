// node_attack_meter: measures what an attack costs V8's irregexp, the way
// JavaScript code meets it (new RegExp(pattern, flags); exec for a search,
// String.replace with the g flag for all matches), in CPU time, for the
// EngineAttacks judge (engine_attacks_test.py), which decides from these
// times whether the attack is super-linear. V8 has no step counter; the
// judge makes CPU time a stable verdict.
//
// Run with --single-threaded: V8's garbage collector and compiler then work
// on the main thread, whose runs are measured, and its helper threads stay
// idle, so the process's CPU time (process.cpuUsage(), microseconds, the
// kernel's running total) is the main thread's. Node 20 has no per-thread
// CPU clock, and /proc/thread-self/schedstat is no substitute: for the
// thread reading it, it is only brought up to date at the scheduler's
// tick, so runs under 4 ms read as 0.
//
// Protocol, one JSON line each way (as pcre2_attack_meter.cc):
//   {"op": "compile", "pattern", "flags", "attack"} -> {"unit":
//   "cpu-seconds"} or {"error"}; {"op": "measure", "n": [...], "runs": k}
//   -> {"costs": [...], "lengths": [...]}, each the least of k runs (no more
//   runs once one costs over 0.5 s).
'use strict';
const readline = require('readline');

function cpuSeconds() {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

let attack = null;

function compile(request) {
  const flags = (request.flags || '').replace(/[x]/g, '');
  let re;
  try {
    re = new RegExp(request.pattern, flags);
  } catch (e) {
    attack = null;
    return {error: 'does not compile: ' + e.message};
  }
  attack = {re, global: flags.includes('g'), ...request.attack};
  return {unit: 'cpu-seconds'};
}

function cost(subject) {
  const start = cpuSeconds();
  attack.re.lastIndex = 0;
  if (attack.global) {
    subject.replace(attack.re, '');
  } else {
    attack.re.exec(subject);
  }
  return cpuSeconds() - start;
}

function measure(request) {
  const costs = [];
  const lengths = [];
  for (const n of request.n) {
    const subject = attack.prefix + attack.pump.repeat(n) + attack.suffix;
    let least = Infinity;
    for (let i = 0; i < Math.max(request.runs || 1, 1); ++i) {
      const spent = cost(subject);
      least = Math.min(least, spent);
      if (spent > 0.5) break;
    }
    costs.push(least);
    lengths.push(subject.length);
  }
  return {costs, lengths};
}

const lines = readline.createInterface({input: process.stdin});
lines.on('line', (line) => {
  if (!line.trim()) return;
  let reply;
  try {
    const request = JSON.parse(line);
    if (request.op === 'compile') {
      reply = compile(request);
    } else if (request.op === 'measure' && attack !== null) {
      reply = measure(request);
    } else {
      reply = {error: 'bad request'};
    }
  } catch (e) {
    reply = {error: 'bad request line: ' + e.message};
  }
  console.log(JSON.stringify(reply));
});
