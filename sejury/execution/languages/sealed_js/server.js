// The sealed JavaScript harness's program side (node's standard library only): one process per call.
// It reads the request (the call's name and arguments, nothing of the tests), loads the program,
// calls, and writes the answer (the value as plain data, or the exception) on fd 3; what the program
// prints goes to its own stdout, which the checker drops.
"use strict";
const fs = require("fs"), vm = require("vm");
const { enc, dec } = require("./codec.js");
const request = JSON.parse(fs.readFileSync(0, "utf8"));  // read before the program runs: it reads nothing
const answer = (obj) => fs.writeSync(3, JSON.stringify(obj) + "\n");
globalThis.assert = require("assert");
globalThis.module = { exports: {} }; globalThis.exports = module.exports; globalThis.require = require;
try {
  vm.runInThisContext(fs.readFileSync("solution.js", "utf8"), { filename: "solution.js" });
} catch (e) {
  answer({ loaded: false, error: String(e).slice(0, 300) });
  process.exit(0);
}
if (request.load) {
  answer({ loaded: true });
  process.exit(0);
}
let result;
try {
  let fn;
  try { fn = vm.runInThisContext(request.call); } catch (e) { fn = module.exports && module.exports[request.call]; }
  if (typeof fn !== "function" && module.exports && typeof module.exports[request.call] === "function") {
    fn = module.exports[request.call];
  }
  const value = fn(...dec(request.args));
  result = { ok: enc(value) };
} catch (e) {
  let name = "Error", msg = "";
  try { name = (e && e.constructor && e.constructor.name) || typeof e; msg = String(e && e.message !== undefined ? e.message : e); } catch (_) {}
  result = { raise: name, msg: msg.slice(0, 300) };
}
answer(result);
process.exit(0);
