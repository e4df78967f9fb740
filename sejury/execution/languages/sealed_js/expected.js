// Checks whose expected value holds the program's own object, in the sealed JavaScript checker (node's
// standard library only).  Such an object (an object of the program's class the tests made with
// `new`, or one a call gave them) lives in the program's process (handles.js): comparing it reads
// its fields there, so the program answers the reads of both sides of the check and could make any
// answer look right.  A check that passed so is the harness's limit, a fault, never a pass; a check
// that read nothing of the program's (`toBe`; the same object on both sides), or whose expected value
// holds none of its objects, stands as it is.  bdd.js's `expect`, chai.js's chains and assert, and
// node's assert (checker.js) run their checks through `checked`; checker.js says what counts.
"use strict";
let judge = null;  // (run, expected) => run's value, or a fault; none in a plain run (no stand-ins)
const checked = (run, expected) => (judge ? judge(run, expected) : run());
// whether a value holds an object of the program's (a stand-in's own fields are not looked into)
function holds(v, mine, seen = new Set(), depth = 0) {
  if (v === null || (typeof v !== "object" && typeof v !== "function")) return false;
  if (mine(v)) return true;
  if (typeof v === "function" || depth > 100 || seen.has(v)) return false;
  seen.add(v);
  const inner = (x) => holds(x, mine, seen, depth + 1);
  if (v instanceof Map) return [...v].some(([a, b]) => inner(a) || inner(b));
  if (v instanceof Set) return [...v].some(inner);
  return Object.keys(v).some((k) => {
    const d = Object.getOwnPropertyDescriptor(v, k);
    return Boolean(d && "value" in d && inner(d.value));
  });
}
// checker.js's: ``mine(v)``: v is a stand-in of the program's objects; ``asked()``: the requests made
// to the program's process so far (a failure's message reading fields is not counted); ``refuse()``:
// the fault to throw
function judgeWith(mine, asked, refuse) {
  judge = (run, expected) => {
    const before = asked();
    const value = run();
    if (asked() !== before && holds(expected, mine)) throw refuse();
    return value;
  };
}
// node's assert module with each of its checks run through `checked` (its expected values: every
// argument after the first); `assert.strict` too
function guarded(mod) {
  const out = function assert(...a) { return mod(...a); };
  for (const k of Object.keys(mod)) {
    const f = mod[k];
    if (k === "strict") out.strict = f === mod ? out : guarded(f);
    else out[k] = typeof f === "function" && /^[a-z]/.test(k) ? (...a) => checked(() => f(...a), a.slice(1)) : f;
  }
  return out;
}
module.exports = { checked, judgeWith, guarded };
