"""JavaScript tests in Jest's, Mocha's and node:test's form (describe/it/test, hooks, expect), run
in the sealed checker as those runners run them (``_bdd.py``, ``sealed_js/bdd.js``)."""

from __future__ import annotations

import pytest

from sejury.execution.languages import get
from sejury.execution.languages.base import Suite
from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.examples import judge_pair

SUITE = """import { describe, it, expect } from 'vitest';
const { clamp } = require('./clamp');   // it('is not a test') in a comment
const LOW = 0;

describe('clamp', () => {
  describe('inside', () => {
    it("keeps a value", () => { expect(clamp(5, LOW, 10)).toBe(5); });
  });
  test.each([[-1, 0], [11, 10]])('clamps %i', (x, want) => { expect(clamp(x, LOW, 10)).toBe(want); });
});

test('alone', () => { expect(clamp(1, 1, 1)).toBe(1); });
console.assert(clamp(2, 0, 1) === 1);
"""
CLAMP = "function clamp(x, lo, hi) {\n  return Math.min(hi, Math.max(lo, x));\n}\nmodule.exports = { clamp };\n"


def test_each_test_of_a_block_is_a_unit_named_by_its_title() -> None:
    suite = split_tests("javascript", SUITE, CLAMP)
    lang = get("javascript")
    assert lang.test_name is not None
    assert [lang.test_name(u) for u in suite.units[:1]] == ["clamp > keeps a value"]
    assert len(suite.units) == 4  # two in the describe block (test.each is one), one alone, an assert beside
    assert lang.test_name(suite.units[2]) == "alone"
    assert suite.units[3] == "console.assert(clamp(2, 0, 1) === 1);"
    assert "const { describe, it, expect } = require('vitest');" in suite.setup  # the ES import, as a require
    assert "const LOW = 0;" in suite.setup


HOOKS = """const { sumTo, half, later } = require('./lib');
const log = [];

describe('sumTo', () => {
  let n;
  beforeAll(() => { log.push('all'); });
  beforeEach(() => { n = 4; log.push('each'); });
  afterEach(() => { log.push('after'); });

  it('runs its hooks first', () => {
    expect(sumTo(n)).toBe(10);
    expect(log).toEqual(['all', 'each']);
  });
  it('fails on the program value', () => { expect(sumTo(3)).toBe(6); });
  it('awaits an async test', async () => {
    const v = await Promise.resolve(sumTo(2));
    expect(v).toBe(3);
  });
  it('takes a done callback', (done) => { setTimeout(() => { expect(sumTo(1)).toBe(1); done(); }, 10); });
  it('matches', () => {
    expect(half(1)).toBeCloseTo(0.5, 5);
    expect([sumTo(1), sumTo(2)]).toContain(3);
    expect({ a: sumTo(1), b: undefined }).toEqual({ a: 1 });
    expect({ a: 1, b: [2] }).toMatchObject({ b: [2] });
    expect(() => sumTo(-1)).toThrow('negative');
    expect(sumTo(0)).not.toBe(1);
    expect(String(sumTo(3))).toMatch(/^6$/);
  });
  it('rejects', async () => { await expect(later(-1)).rejects.toThrow('negative'); });
  it.skip('is skipped', () => { expect(true).toBe(true); });
  it('never settles', () => new Promise(() => {}));
});
"""
LIB = """function sumTo(n) { if (n < 0) throw new RangeError('negative'); return n * (n + 1) / 2; }
function half(x) { return x / 2; }
function later(n) { return n; }
module.exports = { sumTo, half, later };
"""
LIB_WRONG = LIB.replace("return n * (n + 1) / 2;", "return n === 3 ? 7 : n * (n + 1) / 2;")


@pytest.mark.docker
async def test_hooks_async_tests_and_matchers_run_as_jest_would(sandbox: DockerSandbox) -> None:
    suite = split_tests("javascript", HOOKS, LIB)
    assert len(suite.units) == 8
    right = await run_suite(sandbox, "javascript", LIB, suite, timeout=40)
    assert right.loaded, right.load_error
    # a value from the program is plain data: later(-1) returns -1, so `.rejects` fails; a skipped test
    # fails (it checks nothing); a promise that never settles fails on the test's own time limit
    assert right.passed == [True, True, True, True, True, False, False, False], right.reasons
    assert "resolved" in right.reasons[5] and "skipped" in right.reasons[6] and "did not settle" in right.reasons[7]
    wrong = await run_suite(sandbox, "javascript", LIB_WRONG, Suite(suite.setup, suite.units[:5]), timeout=40)
    assert wrong.passed[:5] == [True, False, True, True, False], wrong.reasons
    assert "expected 7 to be 6" in wrong.reasons[1], wrong.reasons


@pytest.mark.docker
async def test_a_developers_jest_tests_are_the_sample_tests_evidence() -> None:
    """The bundled ``examples/jest`` pair: before, "no test could be read" and Sample-tests was
    unscored; now the right one passes 4 of 4 and the wrong one fails the test it should, named."""
    got = await judge_pair("jest", "run_length")
    right, wrong = got["right"].strategies["sample_tests"], got["wrong"].strategies["sample_tests"]
    assert right.score == 100 and wrong.score == 75, (right.detail, wrong.detail)
    assert got["right"].passed is True and got["wrong"].passed is False
    assert wrong.against is not None and "rle > a character seen again starts a new run" in wrong.against


@pytest.mark.docker
async def test_an_own_proto_key_stays_a_key_and_does_not_pass_for_an_empty_object(sandbox: DockerSandbox) -> None:
    """A value the program returns with an own ``"__proto__"`` key crossed as the decoded object's
    prototype (``o[k] = v``), so ``toEqual({})`` saw no key and passed: it stays an own key now."""
    program = ("function parsed() {\n  return JSON.parse('{\"__proto__\": {\"x\": 1}}');\n}\n"
               "module.exports = { parsed };\n")
    tests = ("test('not empty', () => { expect(parsed()).not.toEqual({}); });\n"
             "test('one own key', () => { expect(Object.keys(parsed())).toEqual(['__proto__']); });\n")
    got = await run_suite(sandbox, "javascript", program, split_tests("javascript", tests, program), timeout=30)
    assert got.passed == [True, True], got.reasons



ROWS = """const { clamp } = require('./clamp');

describe.each([[0, 10], [-5, 5], [100, 200]])('between %i and %i', (lo, hi) => {
  let calls;
  beforeEach(() => { calls = 0; });
  it('keeps the bounds', () => { calls++; expect(clamp(lo, lo, hi)).toBe(lo); expect(clamp(hi, lo, hi)).toBe(hi); });
  it('cuts below', async () => { expect(await Promise.resolve(clamp(lo - 1, lo, hi))).toBe(lo); });
});

describe('a loop of tests', () => {
  for (const x of [1, 2, 300]) {
    it(`keeps ${x} under 1000`, () => { expect(clamp(x, 0, 1000)).toBe(x); });
  }
});
"""
CLAMP_ABOVE_99 = CLAMP.replace("return Math.min", "if (x > 99) return 99;\n  return Math.min")  # wrong past 99


@pytest.mark.docker
async def test_every_row_of_a_describe_each_and_every_test_of_a_loop_runs(sandbox: DockerSandbox) -> None:
    """Until ``RUNNERS_VERSION`` 51 a unit ran the first test its text registered: the first row of
    a ``describe.each``, the first pass of a loop; the wrong program's failures were all in later ones."""
    suite = split_tests("javascript", ROWS, CLAMP)
    lang = get("javascript")
    assert lang.test_name is not None
    assert [lang.test_name(u) for u in suite.units] == [
        "between %i and %i > keeps the bounds", "between %i and %i > cuts below",
        "a loop of tests > keeps ${x} under 1000"]
    right = await run_suite(sandbox, "javascript", CLAMP, suite, timeout=60)
    assert right.passed == [True, True, True], right.reasons
    wrong = await run_suite(sandbox, "javascript", CLAMP_ABOVE_99, suite, timeout=60)
    assert wrong.passed == [False, True, False], wrong.reasons  # below a bound it is right on every row
    assert "99 to be 100" in wrong.reasons[0] and "99 to be 300" in wrong.reasons[2], wrong.reasons
