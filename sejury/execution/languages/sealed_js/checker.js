// The sealed JavaScript harness's checker (node's standard library only).  It holds the tests; the
// program runs in other processes (server.js, one per call) that see only each call's arguments and
// answer with plain data (codec.js), so the tests' asserts compare values this process made.  The
// tests and the run's key are read, then deleted, before any program process starts; this process
// runs from an execute-only copy of node where the sandbox has one, so another process of the same
// user cannot read its memory.  Result lines are authenticated: HMAC-SHA256 under the key, numbered.
"use strict";
const fs = require("fs"), vm = require("vm"), cp = require("child_process"), crypto = require("crypto");
const KEY = fs.readFileSync("seal", "utf8").trim();
fs.unlinkSync("seal");
const SUITE = JSON.parse(fs.readFileSync("tests.json", "utf8"));
fs.unlinkSync("tests.json");
const PER_TEST_MS = Number(process.argv[2] || 5) * 1000;
let seq = 0;
const emit = (line) => {
  line = line.replace(/[\r\n]/g, " ");
  const mac = crypto.createHmac("sha256", KEY).update(`${seq}|${line}`).digest("hex").slice(0, 32);
  fs.writeSync(1, `@@M ${seq} ${mac} ${line}\n`);
  seq++;
};
const { enc, dec } = require("./codec.js");
class CandidateExited extends Error {}
let deadline = Date.now() + 20000;
function rpc(req) {
  const left = Math.max(1, deadline - Date.now());
  const r = cp.spawnSync(process.execPath, ["server.js"], {
    input: JSON.stringify(req), stdio: ["pipe", "ignore", "ignore", "pipe"], timeout: left,
    maxBuffer: 8 << 20, killSignal: "SIGKILL",
  });
  if (r.error && r.error.code === "ETIMEDOUT") throw new Error("test took too long");
  const lines = (r.output && r.output[3] ? r.output[3].toString() : "").split("\n").filter((x) => x);
  if (lines.length !== 1) {
    throw new CandidateExited(lines.length ? "the program broke the protocol" : "the program's process ended during the call");
  }
  let reply;
  try { reply = JSON.parse(lines[0]); } catch (e) { throw new CandidateExited("the program broke the protocol"); }
  return reply;
}
const STANDARD = { Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };
function call(name, args) {
  const reply = rpc({ call: name, args: enc(args) });
  if (reply && "raise" in reply) {
    const kind = STANDARD[reply.raise];
    throw kind ? new kind(String(reply.msg)) : new Error(`${reply.raise}: ${reply.msg}`);
  }
  if (!reply || !("ok" in reply)) throw new CandidateExited("the program broke the protocol");
  return dec(reply.ok);
}
let load;
try { load = rpc({ load: true }); } catch (e) { load = { loaded: false, error: String(e) }; }
if (!load || !load.loaded) {
  emit("@@LOAD FAIL " + String((load && load.error) || "").slice(0, 300));
  emit("@@DONE");
  process.exit(3);
}
emit("@@LOAD OK");
globalThis.assert = require("assert");
globalThis.module = { exports: {} }; globalThis.exports = module.exports; globalThis.require = require;
console.assert = (c, ...m) => { if (!c) throw new Error("assertion failed " + m.join(" ")); };
for (const name of SUITE.names) {
  const stub = (...args) => call(name, args);
  Object.defineProperty(stub, "name", { value: name });
  globalThis[name] = stub;
  module.exports[name] = stub;
}
const sejuryShow = (v) => {
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  if (typeof v === "string") return JSON.stringify(v);
  if (v === null || v === undefined || typeof v !== "object") return String(v);
  if (Array.isArray(v)) return "[" + v.map(sejuryShow).join(", ") + "]";
  if (v instanceof Map) {
    return "Map{" + [...v].map(([a, b]) => sejuryShow(a) + ": " + sejuryShow(b)).sort().join(", ") + "}";
  }
  if (v instanceof Set) return "Set{" + [...v].map(sejuryShow).sort().join(", ") + "}";
  return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ": " + sejuryShow(v[k])).join(", ") + "}";
};
const sejuryUnit = [-1, 0];
globalThis.sejury_rec = (i, k, v) => {
  if (i < 0) { i = sejuryUnit[0]; k = 1000 + sejuryUnit[1]++; }
  let s; try { s = sejuryShow(v); } catch (e) { s = "<unshowable>"; }
  s = s.replace(/\n/g, "\\n");
  emit(`@@V ${i} ${k} ${s.slice(0, 1000)}|${s.length}`);
  return v;
};
try { vm.runInThisContext(SUITE.setup, { filename: "setup" }); }
catch (e) { emit("@@SETUP FAIL " + String(e).slice(0, 300)); }
for (const [i, src] of SUITE.units) {
  sejuryUnit[0] = i; sejuryUnit[1] = 0;
  deadline = Date.now() + PER_TEST_MS;
  try { vm.runInThisContext(src, { filename: `test_${i}`, timeout: PER_TEST_MS }); emit(`@@T ${i} PASS`); }
  catch (e) { emit(`@@T ${i} FAIL ` + String(e).slice(0, 200)); }
}
emit("@@DONE");
