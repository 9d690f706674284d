// node_attack_meter: measures what an attack costs V8's irregexp, the way
// JavaScript code meets it (new RegExp(pattern, flags); exec for a search,
// and with the g flag exec again from lastIndex until no match, as
// matchAll and replace do), in CPU time, for the EngineAttacks judge
// (engine_attacks_test.py), which decides from these times whether the
// attack is super-linear. V8 has no step counter; the judge makes CPU time
// a stable verdict.
//
// Not String.replace for the g flag: it also builds the result, and V8's
// collector then makes that super-linear over a range of sizes (/a/g on
// "ab" repeated 131072, 262144, 524288 times: 4.5, 15.5, 54 ms, ratios 3.4
// and 3.5, then back to 2.2), which is the output's cost, not the
// pattern's; the exec loop took 6.7, 12.5 and 24.7 ms.
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
//   runs once one costs over 0.5 s), or {"error"} when V8 gives up (its
//   backtracking stack overflows on long subjects: a RangeError).
'use strict';
const readline = require('readline');

function cpuSeconds() {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

let attack = null;
// Pump count -> subject, for the current attack: the rounds of a ratio ask
// for the same sizes again and again.
const subjects = new Map();

function subjectOf(n) {
  let subject = subjects.get(n);
  if (subject === undefined) {
    if (subjects.size >= 4) subjects.clear();
    subject = attack.prefix + attack.pump.repeat(n) + attack.suffix;
    // V8 builds the concatenation as a rope and flattens it (a copy, and a
    // large allocation that may start a collection) in the first exec on
    // it, which would be timed; an empty regexp flattens it here instead.
    /(?:)/.exec(subject);
    subjects.set(n, subject);
  }
  return subject;
}

function compile(request) {
  const flags = (request.flags || '').replace(/[x]/g, '');
  let re;
  try {
    re = new RegExp(request.pattern, flags);
  } catch (e) {
    attack = null;
    subjects.clear();
    return {error: 'does not compile: ' + e.message};
  }
  attack = {
    re,
    global: flags.includes('g'),
    unicode: flags.includes('u') || flags.includes('v'),
    ...request.attack,
  };
  subjects.clear();
  return {unit: 'cpu-seconds'};
}

// Where a global search goes on after an empty match at `index`: the next
// code unit, or with the u (or v) flag the next code point
// (AdvanceStringIndex in ECMA-262).
function advance(subject, index) {
  if (!attack.unicode || index + 1 >= subject.length) return index + 1;
  const high = subject.charCodeAt(index);
  const low = subject.charCodeAt(index + 1);
  const pair = high >= 0xD800 && high <= 0xDBFF && low >= 0xDC00 &&
      low <= 0xDFFF;
  return index + (pair ? 2 : 1);
}

function cost(subject) {
  const re = attack.re;
  const start = cpuSeconds();
  re.lastIndex = 0;
  let match = re.exec(subject);
  while (attack.global && match !== null) {
    if (match[0].length === 0) re.lastIndex = advance(subject, re.lastIndex);
    match = re.exec(subject);
  }
  return cpuSeconds() - start;
}

function measure(request) {
  const costs = [];
  const lengths = [];
  for (const n of request.n) {
    const subject = subjectOf(n);
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
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    console.log(JSON.stringify({error: 'bad request line: ' + e.message}));
    return;
  }
  let reply;
  if (request.op === 'compile') {
    reply = compile(request);
  } else if (request.op === 'measure' && attack !== null) {
    try {
      reply = measure(request);
    } catch (e) {
      reply = {error: String(e)};
    }
  } else {
    reply = {error: 'bad request'};
  }
  console.log(JSON.stringify(reply));
});
