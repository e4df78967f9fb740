// The sealed JavaScript harness's program side (node's standard library only): one process for the
// suite (another after a call that timed out or ended it). It loads the program, answers
// {"id":0,"loaded":...}, then answers each request line (a call's id, name and arguments, nothing of
// the tests) with the value as plain data, or the exception, on fd 3. What the program prints goes to
// its own stdout, which the checker drops; what it writes on fd 3 out of turn breaks the protocol.
"use strict";
const fs = require("fs"), vm = require("vm");
const { enc, dec } = require("./codec.js");
const channel = fs.createWriteStream(null, { fd: 3 });
const answer = (obj) => channel.write(JSON.stringify(obj) + "\n");
globalThis.assert = require("assert");
globalThis.module = { exports: {} }; globalThis.exports = module.exports; globalThis.require = require;
try {
  vm.runInThisContext(fs.readFileSync("solution.js", "utf8"), { filename: "solution.js" });
  answer({ id: 0, loaded: true });
} catch (e) {
  answer({ id: 0, loaded: false, error: String(e).slice(0, 300) });
  channel.end(() => process.exit(0));
}
function callOf(request) {
  let result;
  try {
    let fn;
    try { fn = vm.runInThisContext(request.call); } catch (e) { fn = module.exports && module.exports[request.call]; }
    if (typeof fn !== "function" && module.exports && typeof module.exports[request.call] === "function") {
      fn = module.exports[request.call];
    }
    result = { id: request.id, ok: enc(fn(...dec(request.args))) };
  } catch (e) {
    let name = "Error", msg = "";
    try { name = (e && e.constructor && e.constructor.name) || typeof e; msg = String(e && e.message !== undefined ? e.message : e); } catch (_) {}
    result = { id: request.id, raise: name, msg: msg.slice(0, 300) };
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
