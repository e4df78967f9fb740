"""Go values held by interfaces across the sealed harness (``sealed_go/codec.go.txt``) and in the
calls Ex-fuzz writes (``sejury/execution/go_typed.py``): HumanEval-X's ``CompareOne(a, b
interface{}) interface{}``, ``CheckDictCase(dict map[interface{}]interface{})`` and
``FilterIntegers(values []interface{}) []int``.  An int passed as ``interface{}`` reaches the
program an int (JSON alone made it a float64), a ``map[interface{}]interface{}`` crosses at all,
and a result keeps its dynamic type (an int 2 is no float64 2) and a nil stays nil."""

from __future__ import annotations

import asyncio

import pytest

from sejury import Status
from sejury.execution.go_typed import go_value
from sejury.execution.languages._go_stubs import signatures
from sejury.execution.runner import run_suite, split_tests
from sejury.execution.typed_literals import Type, typed_parameters, write_call
from sejury.sandbox.docker import DockerSandbox
from tests.execution.test_execution import ex_fuzz_on

COMPARE_PROBLEM = """import (
    "fmt"
    "strconv"
    "strings"
)

// Create a function that takes integers, floats, or strings representing
// real numbers, and returns the larger variable in its given variable type.
// Return nil if the values are equal.
// Note: If a real number is represented as a string, the floating point might be . or ,
//
// CompareOne(1, 2.5) ➞ 2.5
// CompareOne(1, "2,3") ➞ "2,3"
// CompareOne("5,1", "6") ➞ "6"
// CompareOne("1", 1) ➞ nil
func CompareOne(a, b interface{}) interface{} {
"""

# right: reads each value by its dynamic type (a type switch), returns the larger one as it came
COMPARE_RIGHT = """
func CompareOne(a, b interface{}) interface{} {
    fa, fb := number(a), number(b)
    if fa == fb {
        return nil
    }
    if fa > fb {
        return a
    }
    return b
}

func number(x interface{}) float64 {
    switch v := x.(type) {
    case int:
        return float64(v)
    case float64:
        return v
    case string:
        f, _ := strconv.ParseFloat(strings.ReplaceAll(v, ",", "."), 64)
        return f
    }
    panic(fmt.Sprintf("not a number: %T", x))
}
"""
COMPARE_WRONG = COMPARE_RIGHT.replace("if fa > fb {", "if fa < fb {")  # the smaller one
# the larger one, but as a float64 whatever it came as: its type is lost
COMPARE_FLOAT = COMPARE_RIGHT.replace("        return a\n    }\n    return b\n",
                                      "        return fa\n    }\n    return fb\n")

COMPARE_TESTS = """```go
func TestCompareOne(t *testing.T) {
    if CompareOne(1, 2.5) != 2.5 {
        t.Errorf("1, 2.5")
    }
    if CompareOne(1, "2,3") != "2,3" {
        t.Errorf("1, 2,3")
    }
    if CompareOne("1", 1) != nil {
        t.Errorf("nil")
    }
    if CompareOne(2, 1) != 2 {
        t.Errorf("an int 2")
    }
    if CompareOne(1, 2.0) != 2.0 {
        t.Errorf("a float64 2")
    }
}
```"""


def program(body: str) -> str:
    return "package main\n\n" + COMPARE_PROBLEM.rsplit("func CompareOne", 1)[0] + body


@pytest.mark.docker
async def test_compare_one_gets_its_values_with_their_dynamic_types(sandbox: DockerSandbox) -> None:
    """The right ``CompareOne`` (a type switch on int, float64, string) passes every test (JSON alone
    gave it float64s, and the stub of its ``interface{}`` result did not compile); the one returning
    the smaller value fails where it should; the one returning a float64 for an int 2 fails there
    only (``CompareOne(2, 1) != 2``), as in Go."""
    ref = program(COMPARE_RIGHT)
    suite = split_tests("go", COMPARE_TESTS, ref)
    assert len(suite.units) == 5, suite
    right, wrong, floats = await asyncio.gather(*(run_suite(sandbox, "go", program(body), suite)
                                                  for body in (COMPARE_RIGHT, COMPARE_WRONG, COMPARE_FLOAT)))
    assert right.loaded and right.passed == [True] * 5, right.reasons
    assert wrong.loaded and wrong.passed == [False, False, True, False, False], wrong.reasons
    assert floats.loaded and floats.passed == [True, False, True, False, True], floats.reasons


CHECK_DICT = """package main

import "strings"

func CheckDictCase(dict map[interface{}]interface{}) bool {
    if len(dict) == 0 {
        return false
    }
    lower, upper := true, true
    for k := range dict {
        s, ok := k.(string)
        if !ok {
            return false
        }
        lower = lower && s == strings.ToLower(s)
        upper = upper && s == strings.ToUpper(s)
    }
    return lower || upper
}
"""
CHECK_DICT_TESTS = """```go
func TestCheckDictCase(t *testing.T) {
    if !CheckDictCase(map[interface{}]interface{}{"a": "apple", "b": "banana"}) {
        t.Errorf("lower")
    }
    if CheckDictCase(map[interface{}]interface{}{"a": "apple", 8: "banana"}) {
        t.Errorf("an int key")
    }
    if CheckDictCase(map[interface{}]interface{}{"a": "apple", "A": "banana", "B": "banana"}) {
        t.Errorf("mixed")
    }
    if !CheckDictCase(map[interface{}]interface{}{"STATE": "NC", "ZIP": "12345"}) {
        t.Errorf("upper")
    }
    if CheckDictCase(map[interface{}]interface{}{}) {
        t.Errorf("empty")
    }
}
```"""


@pytest.mark.docker
async def test_a_map_with_interface_keys_crosses_the_harness(sandbox: DockerSandbox) -> None:
    """``map[interface{}]interface{}`` was no JSON (``json: unsupported type``: every test failed on
    the reference); now its keys reach the program with their types (the int key 8 is no string),
    and a program that does not look at the keys' types fails where they matter."""
    suite = split_tests("go", CHECK_DICT_TESTS, CHECK_DICT)
    assert len(suite.units) == 5, suite
    loose = CHECK_DICT.replace("        s, ok := k.(string)\n        if !ok {\n            return false\n        }\n",
                               "        s := fmt.Sprint(k)\n")
    loose = loose.replace('import "strings"', 'import (\n"fmt"\n"strings"\n)')
    right, wrong = await asyncio.gather(run_suite(sandbox, "go", CHECK_DICT, suite),
                                        run_suite(sandbox, "go", loose, suite))
    assert right.loaded and right.passed == [True] * 5, right.reasons
    assert wrong.loaded and wrong.passed == [True, False, True, True, True], wrong.reasons


FILTER = """package main

func FilterIntegers(values []interface{}) []int {
    out := []int{}
    for _, v := range values {
        if n, ok := v.(int); ok {
            out = append(out, n)
        }
    }
    return out
}
"""
WRAP = "package main\n\nfunc Wrap(x int) interface{} {\n    return struct{ X int }{x}\n}\n"
FILTER_TESTS = """```go
func TestFilterIntegers(t *testing.T) {
    if !reflect.DeepEqual(FilterIntegers([]interface{}{"a", 3.14, 5}), []int{5}) {
        t.Errorf("one int")
    }
    others := []interface{}{1, 2, 3, "abc", map[interface{}]interface{}{}, []interface{}{}}
    if !reflect.DeepEqual(FilterIntegers(others), []int{1, 2, 3}) {
        t.Errorf("ints among others")
    }
    if !reflect.DeepEqual(FilterIntegers([]interface{}{2.0, nil, true}), []int{}) {
        t.Errorf("no int")
    }
}
```"""


@pytest.mark.docker
async def test_a_slice_of_interfaces_keeps_each_items_type(sandbox: DockerSandbox) -> None:
    """``FilterIntegers`` keeps the ints of a ``[]interface{}``: its 5 arrives an int (JSON alone made
    it a float64, so nothing was kept), its 2.0 a float64 (not kept); a value an interface holds
    that has no type tag (a struct) is no plain data: that test fails, it never passes."""
    suite = split_tests("go", FILTER_TESTS, FILTER)
    wrap = split_tests("go", "```go\nfunc TestWrap(t *testing.T) {\n    if Wrap(1) == nil {\n"
                       "        t.Errorf(\"nil\")\n    }\n}\n```", WRAP)
    assert len(suite.units) == 3 and len(wrap.units) == 1, (suite, wrap)
    got, wrapped = await asyncio.gather(run_suite(sandbox, "go", FILTER, suite), run_suite(sandbox, "go", WRAP, wrap))
    assert got.loaded and got.passed == [True, True, True], got.reasons
    assert wrapped.loaded and wrapped.passed == [False] and "not plain data" in wrapped.reasons[0], wrapped.reasons


@pytest.mark.docker
async def test_ex_fuzz_writes_compare_ones_examples_as_interface_values(sandbox: DockerSandbox) -> None:
    """HumanEval-X's Go problem 137 states ``CompareOne(1, 2.5) ➞ 2.5``: Ex-fuzz read no parameter
    type of ``a, b interface{}`` and stayed unscored; it now writes each example's values as Go's
    untyped constants (``1`` an int, ``2.5`` a float64, ``"2,3"`` a string), and the reference
    answers: the candidate returning the smaller value is caught, the right one agrees on all."""
    caught, agreed = await ex_fuzz_on(sandbox, "go", COMPARE_PROBLEM, COMPARE_RIGHT, COMPARE_WRONG)
    assert caught.status is Status.SCORED and caught.score is not None and caught.score < 50, caught
    assert caught.artifacts["seeds"] == 4 and caught.artifacts["inputs"] > 10, caught.artifacts
    assert agreed.score == 100 and agreed.artifacts["inputs"] == caught.artifacts["inputs"], agreed


def test_interface_parameters_are_read_and_written_as_untyped_constants() -> None:
    """``interface{}`` and ``any`` parameters parse; a value takes the literal whose default type is
    its own; what has no such literal (an infinity, a list as a map's key) gives no call."""
    params = typed_parameters(COMPARE_PROBLEM, "CompareOne", "go")
    assert params == [(Type("interface{}"), "a"), (Type("interface{}"), "b")]
    call = ((1, 2.5), ())
    assert write_call("CompareOne", params, call, "go") == "CompareOne(1, 2.5);"
    assert write_call("CompareOne", params, (("1", None), ()), "go") == 'CompareOne("1", nil);'
    both = typed_parameters("func F(m map[interface{}]interface{}, xs []any, y any) bool {\n", "F", "go")
    assert both is not None and [t.text() for t, _ in both] == ["map[interface{}]interface{}", "[]any", "any"]
    assert go_value({"a": "apple", 8: [1, 2.0, True]}, both[0][0]) == \
        'map[interface{}]interface{}{"a": "apple", 8: []interface{}{1, 2.0, true}}'
    assert go_value([1, "x", None], both[1][0]) == '[]any{1, "x", nil}'
    assert go_value(float("inf"), both[2][0]) is None and go_value(2 ** 63, both[2][0]) is None
    assert go_value({(1, 2): 3}, both[0][0]) is None  # a list as a key: Go cannot hash it
    assert typed_parameters("func G(s interface{ String() string }) {\n", "G", "go") is None  # methods: no rule


def test_a_result_of_interface_type_gives_the_stub_its_type() -> None:
    """The function's body is found after a result type with braces (``interface{}``, a struct)."""
    src = ("func CompareOne(a, b interface{}) interface{} {\n    return a\n}\n"
           "func Pair(x int) (struct{ A int }, map[string]interface{}) {\n    return struct{ A int }{x}, nil\n}\n")
    assert signatures(src) == [("CompareOne", ["interface{}", "interface{}"], ["interface{}"]),
                               ("Pair", ["int"], ["struct{ A int }", "map[string]interface{}"])]


def test_stubs_are_read_from_each_functions_header_with_gos_grammar() -> None:
    """Signatures come from Go's grammar: an indented function, a variadic one, named results, and
    a function after a body the grammar cannot follow are all read; methods, generic functions and
    ``main`` get no stub."""
    src = ("package main\n  func Indented(a, b int) (x, y int) { return a, b }\n"
           "func Broken(s string) int {\n\treturn strings.Count(s,\n}\n"
           "func After(f func(int) int, xs ...string) []string { return xs }\n"
           "func (s S) Method(a int) int { return a }\nfunc Generic[T any](x T) T { return x }\n"
           "func main() {}\n")
    assert signatures(src) == [("Indented", ["int", "int"], ["int", "int"]), ("Broken", ["string"], ["int"]),
                               ("After", ["func(int) int", "...string"], ["[]string"])]
