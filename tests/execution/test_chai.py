"""Mocha suites with chai (``expect(x).to.equal(y)``, ``assert.strictEqual``), run with the checker's
own chai (``sealed_js/chai.js``; the sandbox has no npm packages): before, ``require('chai')`` failed
and no such test was evidence.  And the harness's own failures never pass a check that expects a
throw: a program whose process exits, or that hangs, where the reference throws fails Jest's
``toThrow`` and ``rejects`` and chai's ``throw`` (they passed them: the harness's error was taken
for the program's)."""

from __future__ import annotations

import pytest

from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

CHAI = '''const { expect, assert } = require('chai');
const digits = require('./digits');

describe('digits', function () {
  it('counts', function () {
    expect(digits(123)).to.equal(3);
    assert.strictEqual(digits(5), 1);
  });
  it('counts a list alike', function () {
    expect([digits(1), digits(-22)]).to.eql([1, 2]);
    expect({ a: digits(-1) }).to.deep.equal({ a: 1 });
  });
  it('chains', function () {
    expect(digits(1000)).to.be.a('number').and.to.be.above(3).and.at.most(4);
    expect([digits(7), digits(70)]).to.include(2).and.have.lengthOf(2);
    expect(digits(99)).not.to.equal(3);
  });
  it('reads chai as tests write it', () => expect([digits(-5), digits(10)])
    .to.be.an.instanceOf(Array).and.have.length(2).and.include(1));
  it('throws on what is no number', function () {
    expect(() => digits('x')).to.throw(TypeError, 'not a number');
    assert.throws(() => digits(null));
  });
  it('reads a plugin', function () {
    expect(digits(1)).to.eventually.equal(1);
  });
});
'''
RIGHT = '''function digits(n) {
  if (typeof n !== 'number') throw new TypeError('not a number');
  return String(Math.abs(n)).length;
}
'''
WRONG = RIGHT.replace("Math.abs(n)", "n")  # the sign counted
EXITS = RIGHT.replace("throw new TypeError('not a number');", "process.exit(0);")
HANGS = RIGHT.replace("throw new TypeError('not a number');", "for (;;) {}")


@pytest.mark.docker
async def test_chais_expect_and_assert_are_the_checkers_own(sandbox: DockerSandbox) -> None:
    suite = split_tests("javascript", CHAI, RIGHT)
    right = await run_suite(sandbox, "javascript", RIGHT, suite, timeout=60)
    assert right.passed == [True, True, True, True, True, False], right.reasons
    assert "chai's .eventually is not read" in right.reasons[5]  # fails on the reference: dropped, never a pass
    wrong = await run_suite(sandbox, "javascript", WRONG, suite, timeout=60)
    assert wrong.passed[:5] == [True, False, True, False, True], wrong.reasons
    assert "expected [ 1, 3 ] to deeply equal [ 1, 2 ]" in wrong.reasons[1], wrong.reasons


THROWS = '''describe('digits', () => {
  it('throws (jest)', () => { expect(() => digits('x')).toThrow(TypeError); });
  it('throws (chai)', () => { require('chai').expect(() => digits('x')).to.throw(); });
  it('rejects (jest)', async () => { await expect(Promise.resolve().then(() => digits('x'))).rejects.toThrow(); });
  it('counts', () => { expect(digits(-40)).toBe(2); });
});
'''


@pytest.mark.docker
@pytest.mark.parametrize("program", [EXITS, HANGS], ids=["exits", "hangs"])
async def test_a_program_that_exits_or_hangs_never_passes_a_check_that_expects_a_throw(
        sandbox: DockerSandbox, program: str) -> None:
    suite = split_tests("javascript", THROWS, RIGHT)
    right = await run_suite(sandbox, "javascript", RIGHT, suite, timeout=60)
    assert right.passed == [True, True, True, True], right.reasons
    hack = await run_suite(sandbox, "javascript", program, suite, timeout=60)
    assert hack.passed == [False, False, False, True], hack.reasons
    assert all(any(w in r for w in ("process ended", "took too long", "timed out")) for r in hack.reasons[:3]), \
        hack.reasons
