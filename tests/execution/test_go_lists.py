"""Go's Python lists (``sejury/execution/languages/_go_lists.py``): a ``[2, 4]`` the model writes where
Go needs a composite literal of a known type is written as one; text that is Go is left alone."""

from __future__ import annotations

import pytest

from sejury.execution import languages
from sejury.execution.evidence import validate_on_reference
from sejury.execution.languages._go_lists import typed_lists
from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

PROGRAM = """package main

func Overlap(a [2]int, b [2]int) int {
    lo, hi := a[0], a[1]
    if b[0] > lo {
        lo = b[0]
    }
    if b[1] < hi {
        hi = b[1]
    }
    if hi < lo {
        return 0
    }
    return hi - lo
}

func Bounds(xs []int) [2]int {
    lo, hi := xs[0], xs[0]
    for _, x := range xs {
        if x < lo {
            lo = x
        }
        if x > hi {
            hi = x
        }
    }
    return [2]int{lo, hi}
}

func Join(words []string, sep string) string {
    out := ""
    for i, w := range words {
        if i > 0 {
            out += sep
        }
        out += w
    }
    return out
}
"""

GRID = "\ntype Grid [][]int\n\nfunc Flat(g Grid) []int {\n    return nil\n}\n"  # a named type of the program


def test_a_table_rows_list_takes_its_struct_fields_type() -> None:
    """The benchmark's case: a row of a table gives a ``[2]int`` field a Python list; by position
    (two fields declared on one line) and by key.  No program needed: the struct declares it."""
    tests = ("cases := []struct {\n    a, b [2]int\n    want int\n}{\n    {[2]int{1, 3}, [2, 5], 1},\n"
             "    {[0, 10], [2]int{4, 6}, 2},\n    {a: [1, 2], want: 0},\n}\n")
    assert typed_lists(tests) == tests.replace("[2, 5]", "[2]int{2, 5}").replace(
        "[0, 10]", "[2]int{0, 10}").replace("[1, 2]", "[2]int{1, 2}")


@pytest.mark.parametrize(("written", "repaired"), [
    ("Overlap([1, 3], [2, 5])", "Overlap([2]int{1, 3}, [2]int{2, 5})"),  # the parameters' types
    ("Flat([[1], [2, 3], []])", "Flat(Grid{{1}, {2, 3}, {}})"),  # nested lists: their types elided
    ("Join(['ab', \"c\", 'd'], \",\")", "Join([]string{\"ab\", \"c\", \"d\"}, \",\")"),  # strings in single quotes
    ("Bounds([])", "Bounds([]int{})"),
    ("if Bounds(xs) != [-1, 4] {\n}", "if Bounds(xs) != [2]int{-1, 4} {\n}"),  # compared with the result
    ("ok := reflect.DeepEqual([1, 2], Flat(g))", "ok := reflect.DeepEqual([]int{1, 2}, Flat(g))"),
    ("got := Flat(g)\nif !slicesEqual(got, [1]) {\n}", "got := Flat(g)\nif !slicesEqual(got, []int{1}) {\n}"),
    ("want := [1, 2]\nif !reflect.DeepEqual(Flat(g), want) {\n}",  # a variable, typed by its use
     "want := []int{1, 2}\nif !reflect.DeepEqual(Flat(g), want) {\n}"),
    ("var w []string = ['x']\n_ = w", "var w []string = []string{\"x\"}\n_ = w"),
    ("for _, c := range []struct{ in []int; want [2]int }{{[3, 1], [1, 3]}} {\n"  # a row's field, compared
     "    if Bounds(c.in) != c.want {\n    }\n}",
     "for _, c := range []struct{ in []int; want [2]int }{{[]int{3, 1}, [2]int{1, 3}}} {\n"
     "    if Bounds(c.in) != c.want {\n    }\n}"),
    ("m := map[string][]int{\"a\": [1, 2]}", "m := map[string][]int{\"a\": []int{1, 2}}"),  # a map's value
    ("func cases() [][]int {\n    return [[1, 2], [3]]\n}",  # returned: the declared result's type
     "func cases() [][]int {\n    return [][]int{{1, 2}, {3}}\n}"),
    ("check := func(in []int, want int) {}\ncheck([4, 5], 2)",  # a function literal's parameter
     "check := func(in []int, want int) {}\ncheck([]int{4, 5}, 2)"),
    ("sandbox.Overlap([1, 3], x)", "sandbox.Overlap([2]int{1, 3}, x)"),  # the program called as a package
])
def test_a_list_whose_place_gives_its_type_is_written_as_that_types_literal(written: str, repaired: str) -> None:
    assert typed_lists(written, PROGRAM + GRID) == repaired


@pytest.mark.parametrize("text", [
    "x := a[2] + b[i][j]\ny := m[\"k\"][0:2]",  # index and slice expressions
    "xs := []int{2, 4}\nys := [2]int{2, 4}\nzs := [...]string{\"a\"}\nws := [][]int{{1}, {2}}",  # composite literals
    "buf := make([]byte, 3)\nm := map[string][]int{}\nvar p *[2]int\nch := make([]<-chan []error, 2)",  # types
    "s := []byte(\"ab\")\nv := Map[int, string](f)",  # a conversion, a generic function's instantiation
    # in comments, strings, a raw string (whose backslash escapes nothing)
    "// Overlap([1, 3], [2, 5]) is 1\n/* Flat([[1]]) */ s := \"Bounds([1, 2])\" + `Join([\\`, ['a'])`",
    "Unknown([1, 2])\nBounds(xs, [1, 2])",  # no declared type to write (no such function, no such parameter)
    "Overlap([1], [1, 2, 3])",  # not the arrays' length: [1] is no [2]int{1} (that is [1, 0])
    "Join([1, [2]], \",\")\nif Overlap(a, b) == [1, 2] {\n}",  # the type is no list's (string, int): left so
])
def test_go_and_lists_of_no_known_type_are_left_as_they_are(text: str) -> None:
    assert typed_lists(text, PROGRAM + GRID) == text


def test_only_the_lists_with_a_type_are_rewritten() -> None:
    """One list of a suite has a type and one has none: the first is repaired, the second kept
    exactly as written (not half-repaired)."""
    text = "Unknown([1, ['a']])\nx := Flat([[1], [2]])\n"
    assert typed_lists(text, PROGRAM + GRID) == "Unknown([1, ['a']])\nx := Flat(Grid{{1}, {2}})\n"


OVERLAP_TESTS = """package main

import "testing"

func TestOverlap(t *testing.T) {
	cases := []struct {
		a, b [2]int
		want int
	}{
		{[2]int{1, 3}, [2, 5], 1},
		{[0, 10], [2]int{4, 6}, 2},
		{[1, 2], [3, 4], 0},
	}
	for _, c := range cases {
		if got := Overlap(c.a, c.b); got != c.want {
			t.Errorf("Overlap(%v, %v) = %d", c.a, c.b, got)
		}
	}
	if Overlap([5, 9], [7, 20]) != 2 {
		t.Errorf("direct")
	}
	if Bounds([3, -1, 4]) != [-1, 4] {
		t.Errorf("bounds")
	}
}
"""


def test_split_tests_repairs_the_lists_by_the_references_declarations() -> None:
    suite = split_tests("go", OVERLAP_TESTS, PROGRAM)
    assert len(suite.units) == 5 and "[2]int{2, 5}" in suite.units[0], suite
    assert "Overlap([2]int{5, 9}, [2]int{7, 20})" in suite.units[3] and "[2]int{-1, 4}" in suite.units[4]


@pytest.mark.docker
async def test_a_go_suite_with_python_lists_compiles_and_validates_on_the_reference(sandbox: DockerSandbox) -> None:
    """The suite the model wrote with ``[2, 5]`` for ``[2]int{2, 5}`` (``unexpected comma;
    expecting ]``): split as before (the repair left out) nothing of it compiles on the reference;
    now every test is valid there, and a wrong program (off by one) fails the tests it should."""
    go = languages.get("go")
    assert go is not None
    raw = go.split(OVERLAP_TESTS, go.defined_names(PROGRAM))
    before = await run_suite(sandbox, "go", PROGRAM, raw)
    assert before.loaded and not any(before.passed), before.reasons
    ex, valid = await validate_on_reference(sandbox, "go", PROGRAM, OVERLAP_TESTS)
    assert ex.generated == 5 and len(valid.units) == 5, (ex.reason, ex.reference)
    wrong = await run_suite(sandbox, "go", PROGRAM.replace("return hi - lo\n", "return hi - lo + 1\n"), valid)
    assert wrong.loaded and wrong.passed == [False, False, True, False, True], wrong.reasons
