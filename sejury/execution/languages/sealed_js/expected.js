// Checks whose expected value holds the program's own object, in the sealed JavaScript checker (node's
// standard library only).  Such an object (an object of the program's class the tests made with
// `new`, or one a call gave them) lives in the program's process (handles.js): comparing it reads
// its fields there, so the program answers the reads of both sides of the check and could make any
// answer look right.  A check that passed so is the harness's limit, a fault, never a pass:
// - any check that read anything of the program's while it ran and whose expected values hold such
//   an object (`toEqual(new ListNode(...))` of the program's class, `toThrow(new ItsError(...))`);
// - a deep comparison (`toEqual`, chai's `eql` and `deep`, node's `deepEqual`) with such an object
//   on one side and, on the other, such an object or data the program sent: both sides are then the
//   program's, whichever is called the expected one, even where nothing was read (one object on
//   both sides: a constructor of the program's can give back the object its function returned).
// A check of identity (`toBe`), or one with the tests' own values on a side, stands as it is.
// bdd.js's `expect`, chai.js's chains and assert, and node's assert (checker.js) run their checks
// through `checked`; checker.js says what is the program's.
"use strict";
let judge = null;  // (run, subject, expected, deep) => run's value, or a fault; none in a plain run
// run: the check; subject: the value checked (`expect(x)`'s x, an assert's first argument); expected:
// the others; deep: whether the check compares values (not identity)
const checked = (run, subject, expected, deep) => (judge ? judge(run, subject, expected, deep) : run());
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
// checker.js's: ``mine(v)``: v is a stand-in of the program's objects; ``sent(v)``: v is data the
// program's process sent; ``asked()``: the requests made to it so far (a failure's message reading
// fields is not counted); ``refuse()``: the fault to throw
function judgeWith(mine, sent, asked, refuse) {
  const ours = (v) => holds(v, mine), theirs = (v) => holds(v, (x) => mine(x) || sent(x));
  judge = (run, subject, expected, deep) => {
    const before = asked();
    const value = run();
    if ((asked() !== before && ours(expected))
        || (deep && ((ours(subject) && theirs(expected)) || (ours(expected) && theirs(subject))))) throw refuse();
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
    else out[k] = typeof f === "function" && /^[a-z]/.test(k) ? (...a) => checked(() => f(...a), a[0], a.slice(1), /deep/i.test(k)) : f;
  }
  return out;
}
module.exports = { checked, judgeWith, guarded };
