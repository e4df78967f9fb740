// The sealed JavaScript harness's program side (node's standard library only): one process for the
// suite (another after a call that timed out or ended it). It loads the program, answers
// {"id":0,"loaded":...}, then answers each request line (a call's id, name and arguments, nothing of
// the tests) with the value as plain data, or the exception, on fd 3. What the program prints goes to
// its own stdout, which the checker drops; what it writes on fd 3 out of turn breaks the protocol.
"use strict";
const fs = require("fs"), vm = require("vm");
const { enc, dec, hooks, raised, STANDARD, MAX_LOGGED } = require("./codec.js");
const channel = fs.createWriteStream(null, { fd: 3 });
const answer = (obj) => channel.write(JSON.stringify(obj) + "\n");
// A function of the tests passed to the program (a callback, a jest.fn()) stays in the checker: the
// program gets a stand-in, and each call of it asks the checker (its arguments out on fd 3, the
// answer in on fd 4, both while the program's call waits), where the test's function runs and a
// mock records the call.
const ANSWERS = 4;
let asked = 0, unread = "";
function ask(ref, args) {
  const cb = ++asked;
  fs.writeSync(3, JSON.stringify({ cb, ref, args: enc(args) }) + "\n");
  const buf = Buffer.alloc(65536);
  let end;
  while ((end = unread.indexOf("\n")) < 0) {
    const n = fs.readSync(ANSWERS, buf, 0, buf.length, null);
    if (n === 0) process.exit(0);
    unread += buf.toString("utf8", 0, n);
  }
  const m = JSON.parse(unread.slice(0, end));
  unread = unread.slice(end + 1);
  if (!m || m.cb !== cb) process.exit(0);
  if ("raise" in m) {
    const kind = STANDARD[m.raise];
    throw kind ? new kind(String(m.msg)) : Object.assign(new Error(String(m.msg)), { name: String(m.raise) });
  }
  return dec(m.ok);
}
const STAND_INS = new WeakMap();  // a stand-in, given back (a callback returned, passed on): the test's own
hooks.standIn = (ref) => {
  const standIn = (...args) => ask(ref, args);
  STAND_INS.set(standIn, ref);
  return standIn;
};
hooks.lend = (fn) => (STAND_INS.has(fn) ? ["FN", STAND_INS.get(fn)] : ["O", "function"]);
globalThis.assert = require("assert");
globalThis.module = { exports: {} }; globalThis.exports = module.exports; globalThis.require = require;
try {
  vm.runInThisContext(fs.readFileSync("solution.js", "utf8"), { filename: "solution.js" });
  answer({ id: 0, loaded: true });
} catch (e) {
  answer({ id: 0, loaded: false, error: String(e).slice(0, 300) });
  channel.end(() => process.exit(0));
}
// A test that spies on console (jest.spyOn(console, "log"), console.log = jest.fn()) names the methods
// it watches with each call: what the program logs through them during the call is sent with the
// answer, as data (up to MAX_LOGGED calls), and the checker replays it into the test's spies.
function watching(methods) {
  const logged = [], kept = {};
  for (const m of Array.isArray(methods) ? methods : []) {
    if (typeof m !== "string" || typeof console[m] !== "function") continue;
    kept[m] = console[m];
    console[m] = (...args) => {
      if (logged.length >= MAX_LOGGED) return;
      try { logged.push([m, enc(args)]); } catch (e) { logged.push([m, ["L", [["S", "<too large>"]]]]); }
    };
  }
  return { logged, restore: () => Object.assign(console, kept) };
}
function callOf(request) {
  const watched = watching(request.console);
  let reply;
  try { reply = answerOf(request); } finally { watched.restore(); }
  if (watched.logged.length) reply.console = watched.logged;
  return reply;
}
function answerOf(request) {
  let result;
  try {
    let fn;
    try { fn = vm.runInThisContext(request.call); } catch (e) { fn = module.exports && module.exports[request.call]; }
    if (typeof fn !== "function" && module.exports && typeof module.exports[request.call] === "function") {
      fn = module.exports[request.call];
    }
    result = { id: request.id, ok: enc(fn(...dec(request.args))) };
  } catch (e) {
    result = { id: request.id, ...raised(e) };
  }
  return result;
}
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let end;
  while ((end = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    answer(callOf(JSON.parse(line)));
  }
});
process.stdin.on("end", () => process.exit(0));
