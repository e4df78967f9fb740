"""Go programs with types of their own in the sealed harness (``RUNNERS_VERSION`` 63): the program's
types, constants and inert variables are declared in the checker too, its methods are stubs that send
the receiver with the arguments (a pointer receiver's new value comes back into the test's object), its
values cross as data (unexported fields, pointers that stay one object, cycles), an error keeps the
program's type or sentinel, and a program naming one of Go's predeclared identifiers does not reach the
checker's own ``panic``."""

from __future__ import annotations

import pytest

from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

SHAPES = r'''package main

import (
	"errors"
	"fmt"
	str "strings"
	"time"
)

const Limit = 3

var ErrFull = errors.New("full")
var ErrMissing = fmt.Errorf("missing")

type Shape interface {
	Area() float64
	Name() string
}

type Circle struct{ R float64 }
type Rect struct{ w, h float64 }

func (c Circle) Area() float64 { return 3 * c.R * c.R }
func (c Circle) Name() string  { return "circle" }
func (r *Rect) Area() float64  { return r.w * r.h }
func (r *Rect) Name() string   { return "rect" }

func NewRect(w, h float64) *Rect { return &Rect{w, h} }

func Largest(shapes []Shape) Shape {
	var best Shape
	for _, s := range shapes {
		if best == nil || s.Area() > best.Area() {
			best = s
		}
	}
	return best
}

type Node struct {
	Val  int
	Next *Node
}

type List struct {
	head, tail *Node
	n          int
}

func (l *List) Push(v int) error {
	if l.n >= Limit {
		return fmt.Errorf("push %d: %w", v, ErrFull)
	}
	nd := &Node{Val: v}
	if l.tail == nil {
		l.head, l.tail = nd, nd
	} else {
		l.tail.Next = nd
		l.tail = nd
	}
	l.n++
	return nil
}

func (l *List) Values() []int {
	var out []int
	for n := l.head; n != nil; n = n.Next {
		out = append(out, n.Val)
	}
	return out
}

func (l List) Len() int { return l.n }

type NotFound struct{ Key string }

func (e *NotFound) Error() string { return "not found: " + e.Key }

type Store struct {
	data    map[string]int
	created time.Time
}

func NewStore() *Store { return &Store{data: map[string]int{}, created: time.Unix(0, 0).UTC()} }

func (s *Store) Get(k string) (int, error) {
	v, ok := s.data[k]
	if !ok {
		if k == "" {
			return 0, ErrMissing
		}
		return 0, &NotFound{k}
	}
	return v, nil
}

func (s *Store) Set(k string, v int) { s.data[k] = v }

func (s *Store) Created() time.Time { return s.created }

func Upper(b str.Builder) string { return str.ToUpper(b.String()) }

type Celsius float64

func (c Celsius) String() string { return fmt.Sprintf("%.1fC", float64(c)) }

type Point struct{ X, Y int }

func Count(ps []Point) map[Point]int {
	m := map[Point]int{}
	for _, p := range ps {
		m[p]++
	}
	return m
}

func Ring(n int) *Node {
	head := &Node{Val: 0}
	cur := head
	for i := 1; i < n; i++ {
		cur.Next = &Node{Val: i}
		cur = cur.Next
	}
	cur.Next = head
	return head
}
'''

SHAPES_TESTS = r'''package main

import (
	"errors"
	"testing"
	"time"
)

func TestShapes(t *testing.T) {
	got := Largest([]Shape{Circle{1}, NewRect(2, 5), Circle{2}})
	if got.Name() != "circle" || got.Area() != 12 {
		t.Errorf("got %v", got)
	}
}

func TestRectLargest(t *testing.T) {
	got := Largest([]Shape{Circle{1}, NewRect(2, 5)})
	if r, ok := got.(*Rect); !ok || r.Area() != 10 {
		t.Errorf("got %v", got)
	}
}

func TestList(t *testing.T) {
	var l List
	l.Push(1)
	l.Push(2)
	l.Push(3)
	err := l.Push(4)
	if !errors.Is(err, ErrFull) || err.Error() != "push 4: full" {
		t.Errorf("err %v", err)
	}
	if v := l.Values(); len(v) != 3 || v[2] != 3 || l.Len() != 3 {
		t.Errorf("values %v", v)
	}
}

func TestStore(t *testing.T) {
	s := NewStore()
	s.Set("a", 1)
	if v, err := s.Get("a"); err != nil || v != 1 {
		t.Errorf("get %v %v", v, err)
	}
	_, err := s.Get("b")
	var nf *NotFound
	if !errors.As(err, &nf) || nf.Key != "b" {
		t.Errorf("err %v", err)
	}
	if _, err := s.Get(""); err != ErrMissing {
		t.Errorf("err %v", err)
	}
	if !s.Created().Equal(time.Unix(0, 0)) {
		t.Errorf("created")
	}
}

func TestCelsius(t *testing.T) {
	if Celsius(21.5).String() != "21.5C" {
		t.Errorf("string")
	}
}

func TestCount(t *testing.T) {
	m := Count([]Point{{1, 2}, {1, 2}, {3, 4}})
	if m[Point{1, 2}] != 2 || m[Point{3, 4}] != 1 || len(m) != 2 {
		t.Errorf("count %v", m)
	}
}

func TestRing(t *testing.T) {
	r := Ring(3)
	if r.Next.Next.Next != r || r.Next.Val != 1 {
		t.Errorf("ring")
	}
}

func TestLimit(t *testing.T) {
	if Limit != 3 {
		t.Errorf("limit")
	}
}
'''

# each change breaks the units named in SHAPES_WRONG_FAILS, as it would in one process
SHAPES_WRONG = (SHAPES.replace("s.Area() > best.Area()", "s.Area() < best.Area()")
                .replace('return fmt.Errorf("push %d: %w", v, ErrFull)', "return ErrFull")
                .replace("return 0, &NotFound{k}", 'return 0, errors.New("not found: " + k)')
                .replace("return 0, ErrMissing", 'return 0, errors.New("missing")')
                .replace("m[p]++", "m[Point{p.Y, p.X}]++")
                .replace("cur.Next = head", "cur.Next = head.Next"))
SHAPES_WRONG_FAILS = {0, 1, 2, 5, 6, 9, 10}

COUNTER = r'''package main

type Counter struct{ n int }

func (c Counter) Inc()   { c.n++ }
func (c *Counter) Add(k ...int) {
	for _, x := range k {
		c.n += x
	}
}
func (c Counter) N() int { return c.n }

type Bag struct {
	items []*Counter
	first *Counter
}

func (b *Bag) Put(c *Counter) {
	if b.first == nil {
		b.first = c
	}
	b.items = append(b.items, c)
}

func (b *Bag) BumpFirst() { b.first.n += 10 }

func (b *Bag) Sum() int {
	s := 0
	for _, c := range b.items {
		s += c.n
	}
	return s
}
'''

COUNTER_TESTS = r'''package main

import "testing"

func TestCounter(t *testing.T) {
	var c Counter
	c.Inc()
	c.Add(1, 1)
	if c.N() != 2 {
		t.Errorf("n = %d", c.N())
	}
	b := &Bag{}
	b.Put(&Counter{1})
	b.Put(&Counter{2})
	b.BumpFirst()
	if b.Sum() != 13 {
		t.Errorf("sum = %d", b.Sum())
	}
}
'''


@pytest.mark.docker
async def test_the_programs_types_methods_and_errors_cross_the_sealed_harness(sandbox: DockerSandbox) -> None:
    """Before, every unit here failed on the right program too ("tests do not compile": the checker had
    no ``Shape``, ``List``, ``Store``, methods or ``ErrFull``), so such a suite gave no evidence.  Now:
    interface values of the program's types, a pointer receiver's changes, a list whose tail is a node of
    its head's chain, a ring, a map keyed by a struct, ``time.Time`` in an unexported field, errors of the
    program's type (``errors.As``), wrapping its sentinel (``errors.Is``) and its sentinel itself
    (``==``), a method of a type over ``float64`` and a constant."""
    suite = split_tests("go", SHAPES_TESTS, SHAPES)
    right = await run_suite(sandbox, "go", SHAPES, suite, timeout=120)
    assert right.loaded and right.sealed and len(right.passed) == 12 and all(right.passed), right.reasons
    wrong = await run_suite(sandbox, "go", SHAPES_WRONG, suite, timeout=120)
    assert {i for i, ok in enumerate(wrong.passed) if not ok} == SHAPES_WRONG_FAILS, wrong.reasons


@pytest.mark.docker
async def test_receivers_and_shared_objects_behave_as_in_one_process(sandbox: DockerSandbox) -> None:
    """A value receiver's change stays in its copy; a pointer receiver's reaches the test's object; two
    fields naming one object still name one after the call (``BumpFirst`` changes an item of the bag)."""
    suite = split_tests("go", COUNTER_TESTS, COUNTER)
    right = await run_suite(sandbox, "go", COUNTER, suite, timeout=120)
    assert right.loaded and right.passed == [True, True], right.reasons
    apart = COUNTER.replace("b.first = c", "b.first = &Counter{c.n}")  # the first item copied: not one object
    wrong = await run_suite(sandbox, "go", apart, suite, timeout=120)
    assert wrong.passed == [True, False] and "sum = 3" in wrong.reasons[1], wrong.reasons


BUILTINS_TESTS = r'''package main

import "testing"

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Errorf("bad")
	}
	if Add(2, 2) != 4 {
		t.Fatalf("bad")
	}
}
'''


@pytest.mark.docker
@pytest.mark.parametrize("declared", [
    "func panic(v interface{}) {}",
    "func recover() interface{} { return nil }",
    "const true = false\n\ntype error struct{}\n\nfunc len(v interface{}) int { return 0 }",
])
async def test_a_program_naming_a_predeclared_identifier_does_not_reach_the_checker(
        sandbox: DockerSandbox, declared: str) -> None:
    """The checker declared a stub for each of the program's functions in its own package, so a program's
    ``func panic(v interface{}) {}`` became the ``panic`` the harness fails a unit with: this wrong
    program passed both units (``RUNNERS_VERSION`` 62).  A name of Go's universe block is not declared in
    the checker now; the program keeps it in its own process."""
    program = f"package main\n\nfunc Add(a, b int) int {{ return a - b }}\n\n{declared}\n"
    suite = split_tests("go", BUILTINS_TESTS, program)
    got = await run_suite(sandbox, "go", program, suite, timeout=120)
    assert got.passed == [False, False], got.reasons


POINTS_TESTS = r'''package main

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(Point{1, 2}, Point{3, 4}); got != (Point{4, 6}) {
		t.Errorf("got %v", got)
	}
}
'''

# wrong (it subtracts), and says otherwise in every way JSON would let it: the fields hidden from
# encoding/json, its own MarshalJSON and UnmarshalJSON
LYING_POINTS = r'''package main

type Point struct {
	X int `json:"-"`
	Y int `json:"-"`
}

func (p Point) MarshalJSON() ([]byte, error) { return []byte(`{"X":4,"Y":6}`), nil }

func (p *Point) UnmarshalJSON(b []byte) error {
	p.X, p.Y = 4, 6
	return nil
}

func Add(a, b Point) Point { return Point{a.X - b.X, a.Y - b.Y} }
'''


@pytest.mark.docker
async def test_a_programs_json_methods_and_tags_do_not_decide_what_crosses(sandbox: DockerSandbox) -> None:
    """The program's types cross by reflection, field by field, never through encoding/json, whose tags
    and methods the program writes."""
    suite = split_tests("go", POINTS_TESTS, LYING_POINTS)
    lying = await run_suite(sandbox, "go", LYING_POINTS, suite, timeout=120)
    assert lying.passed == [False] and "got {-2 -2}" in lying.reasons[0], lying.reasons
    right = LYING_POINTS.replace("a.X - b.X, a.Y - b.Y", "a.X + b.X, a.Y + b.Y")
    assert (await run_suite(sandbox, "go", right, suite, timeout=120)).passed == [True]


CHAIN = r'''package main

type Node struct {
	Val  int
	Next *Node
}

func Chain(n int) *Node {
	var head *Node
	for i := n; i > 0; i-- {
		head = &Node{i, head}
	}
	return head
}
'''

CHAIN_TESTS = r'''package main

import "testing"

func TestChain(t *testing.T) {
	if c := Chain(1000); c.Val != 1 || c.Next.Next.Val != 3 {
		t.Errorf("short")
	}
	if c := Chain(100000); c == nil || c.Val != 1 {
		t.Errorf("long")
	}
}
'''


@pytest.mark.docker
async def test_an_answer_nested_deeper_than_the_bound_fails_its_unit(sandbox: DockerSandbox) -> None:
    """A list of 1,000 nodes crosses; one of 100,000 is over the codec's nesting bound: the harness's
    fault, which fails that unit (a wrong program gains nothing by it; a right one loses that check)."""
    suite = split_tests("go", CHAIN_TESTS, CHAIN)
    got = await run_suite(sandbox, "go", CHAIN, suite, timeout=120)
    assert got.passed == [True, False] and "nested too deep" in got.reasons[1], got.reasons


def test_what_of_the_program_the_checker_declares() -> None:
    """Types (a generic one as a declaration only: no methods, not named across), constants, variables
    whose initializers run no code, imports under a name of their own, and methods of the types
    declared; nothing named as one of Go's predeclared identifiers.  A variable made by a call (but a
    sentinel error's), a function literal or a channel receive is left out: the checker would run the
    program's code as its package starts; so is one naming a variable left out (``Lookup``, ``Again``)."""
    from sejury.execution.languages._go_stubs import declarations, signatures  # (bench/go_suites.py runs old ones)

    program = '''package main

import (
	str "strings"
	_ "embed"
	. "math"
	nil "sort"
)

const Limit = 3

const (
	A = iota
	B
)

const true = false

type (
	P struct{ x int }
	Q[T any] struct{ v T }
	R = P
)

type error struct{}

var ErrGone = errors.New("gone")
var ErrLate = fmt.Errorf("late")
var ErrA, ErrB = errors.New("a"), errors.New("b")
var Made = fmt.Errorf("made %d", Limit)
var Words = strings.Fields("a b")
var Lookup = map[string][]string{"en": Words}
var Again = Lookup
var Origin = P{x: 0}
var Table = map[string]int{"a": len("ab")}
var Hook = func() int { return 1 }
var Next = <-ready
var Pid = os.Getpid()
var Count int

func panic(v interface{}) {}

func Add(a, b int) int { return a + b }

func (p P) Get() int { return p.x }

func (p *P) Set(v int, more ...int) (old int, err error) { return p.x, nil }

func (q *Q[T]) Value() T { return q.v }
'''
    decls = declarations(program)
    assert decls.texts == ["const Limit = 3", "const (\n\tA = iota\n\tB\n)", "type P struct{ x int }",
                           "type Q[T any] struct{ v T }", "type R = P",
                           'var ErrGone = errors.New("gone")', 'var ErrLate = fmt.Errorf("late")',
                           'var ErrA, ErrB = errors.New("a"), errors.New("b")', "var Origin = P{x: 0}", "var Count int"]
    assert decls.imports == ['str "strings"'] and decls.types == ["P"]
    assert decls.sentinels == ["ErrGone", "ErrLate", "ErrA", "ErrB"]
    assert [(m.type, m.pointer, m.name, m.params, m.results) for m in decls.methods] == [
        ("P", False, "Get", [], ["int"]), ("P", True, "Set", ["int", "...int"], ["int", "error"])]
    assert [name for name, _, _ in signatures(program)] == ["Add"]


FAULTS_TESTS = r'''package main

import (
	"errors"
	"testing"
)

func TestDivideByZeroPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("expected a panic")
		}
	}()
	Divide(1, 0)
}

func TestMark(t *testing.T) {
	if Mark() != "a\uFFFDb" {
		t.Errorf("not the replacement character")
	}
}

func TestLookup(t *testing.T) {
	var nf *NotFound
	if err := Lookup("k"); !errors.As(err, &nf) || nf.Key != "k" || err.Error() != "lookup: not found: k" {
		t.Errorf("got %v", err)
	}
}
'''

FAULTS_RIGHT = r'''package main

import "fmt"

type NotFound struct{ Key string }

func (e *NotFound) Error() string { return "not found: " + e.Key }

func Lookup(k string) error { return fmt.Errorf("lookup: %w", &NotFound{k}) }

func Divide(a, b float64) float64 {
	if b == 0 {
		panic("division by zero")
	}
	return a / b
}

func Mark() string { return "a\uFFFDb" }
'''

# wrong on the first two: +Inf cannot cross, nor can a string that is not UTF-8; both were the harness's
# own panic (a test recovering any panic passed) or a silent repair (U+FFFD for the bad byte) before
FAULTS_WRONG = (FAULTS_RIGHT.replace('\tif b == 0 {\n\t\tpanic("division by zero")\n\t}\n', "")
                .replace('return "a\\uFFFDb"', 'return "a\\xffb"'))


@pytest.mark.docker
async def test_what_cannot_cross_is_the_harness_fault_and_a_wrapped_error_keeps_its_type(
        sandbox: DockerSandbox) -> None:
    suite = split_tests("go", FAULTS_TESTS, FAULTS_RIGHT)
    right = await run_suite(sandbox, "go", FAULTS_RIGHT, suite, timeout=120)
    assert right.passed == [True, True, True], right.reasons
    wrong = await run_suite(sandbox, "go", FAULTS_WRONG, suite, timeout=120)
    assert wrong.passed == [False, False, True], wrong.reasons
    assert "cannot cross" in wrong.reasons[0] and "not UTF-8" in wrong.reasons[1], wrong.reasons


GRADES = r'''package main

type Grade int

const (
	F Grade = iota
	D
	C
	B
	A
)

func Classify(score int) Grade {
	switch {
	case score >= 90:
		return A
	case score >= 80:
		return B
	}
	return F
}
'''

# wrong (every grade 100 over), and its GoString says otherwise
GRADES_SHOWN = GRADES.replace("func Classify", "func (g Grade) GoString() string { return strconv.Itoa(int(g) % 100) }"
                              "\n\nfunc Classify").replace("\treturn F\n}", "\treturn F + 100\n}").replace(
                              "return A", "return A + 100").replace("return B", "return B + 100")


@pytest.mark.docker
async def test_the_recorded_value_is_the_values_own_not_its_gostring(sandbox: DockerSandbox) -> None:
    """Differential testing compares the values the calls return, written by the checker's recorder;
    it wrote a named integer with ``%#v``, which asks the program's ``GoString``: a wrong program showed
    the reference's values."""
    from sejury.execution.differential import record_calls

    checks = "".join(f"\tif Classify({s}) != {g} {{\n\t\tt.Errorf(\"{s}\")\n\t}}\n"
                     for s, g in ((95, "A"), (85, "B"), (50, "F")))
    tests = "package main\n\nimport \"testing\"\n\nfunc TestClassify(t *testing.T) {\n" + checks + "}\n"
    split = split_tests("go", tests, GRADES)
    suite = type(split)(split.setup, [record_calls(u, i, "Classify") for i, u in enumerate(split.units)])
    right = await run_suite(sandbox, "go", GRADES, suite, timeout=120)
    shown = await run_suite(sandbox, "go", GRADES_SHOWN, suite, timeout=120)
    assert right.passed == [True] * 3 and shown.passed == [False] * 3, shown.reasons
    assert right.values and shown.values and right.values != shown.values, (right.values, shown.values)


SHARING = r'''package main

import "sort"

type Set map[int]bool

func NewSet() Set            { return Set{} }
func (s Set) Add(x int)      { s[x] = true }
func (s Set) Has(x int) bool { return s[x] }

type Builder struct{ parts []string }

func (b *Builder) Add(s string) *Builder { b.parts = append(b.parts, s); return b }
func (b *Builder) Len() int              { return len(b.parts) }

type Account struct{ Balance int }

func (a *Account) Transfer(to *Account, amt int) { a.Balance -= amt; to.Balance += amt }

func (a *Account) Clone() *Account { return &Account{a.Balance} }

func Sorted(xs []int) []int {
	out := append([]int{}, xs...)
	sort.Ints(out)
	return out
}

type Cache struct{ m map[string]int }

func NewCache() Cache               { return Cache{m: map[string]int{}} }
func (c Cache) Put(k string, v int) { c.m[k] = v }
func (c Cache) Get(k string) int    { return c.m[k] }

func Bump(xs []int) {
	for i := range xs {
		xs[i]++
	}
}
'''

SHARING_TESTS = r'''package main

import "testing"

func TestSharing(t *testing.T) {
	s := NewSet()
	s.Add(1)
	if !s.Has(1) || len(s) != 1 {
		t.Errorf("set")
	}
	b := &Builder{}
	b.Add("a").Add("b")
	if b.Len() != 2 {
		t.Errorf("builder %d", b.Len())
	}
	from, to := &Account{100}, &Account{0}
	from.Transfer(to, 30)
	if from.Balance != 70 || to.Balance != 30 {
		t.Errorf("transfer %d %d", from.Balance, to.Balance)
	}
	c := from.Clone()
	c.Transfer(to, 10)
	if from.Balance != 70 || c.Balance != 60 {
		t.Errorf("clone %d %d", from.Balance, c.Balance)
	}
	in := []int{3, 1, 2}
	if out := Sorted(in); in[0] != 3 || out[0] != 1 {
		t.Errorf("sorted %v %v", in, out)
	}
	xs := []int{1, 2}
	Bump(xs)
	if xs[0] != 2 || xs[1] != 3 {
		t.Errorf("bump %v", xs)
	}
	cache := NewCache()
	cache.Put("a", 1)
	if cache.Get("a") != 1 {
		t.Errorf("cache")
	}
}
'''

# wrong where one process shares: a clone that is its original, a sort of the input itself
SHARING_WRONG = (SHARING.replace("func (a *Account) Clone() *Account { return &Account{a.Balance} }",
                                 "func (a *Account) Clone() *Account { return a }")
                 .replace("out := append([]int{}, xs...)", "out := xs"))


@pytest.mark.docker
async def test_what_a_call_changes_in_its_arguments_reaches_the_tests_values(sandbox: DockerSandbox) -> None:
    """What the program's call changes in a pointer's object, a slice's items or a map's entries it was
    given (the receiver among them) is written back into the test's own value, and a result that is
    one of those objects is the test's own pointer: a right program's map-typed set, builder chain,
    transfer, in-place bump and value-receiver cache work as in one process, and a wrong
    one whose clone is its original, or whose sort changes its input, fails as there (before: passed)."""
    suite = split_tests("go", SHARING_TESTS, SHARING)
    right = await run_suite(sandbox, "go", SHARING, suite, timeout=120)
    assert right.loaded and all(right.passed) and len(right.passed) == 7, right.reasons
    wrong = await run_suite(sandbox, "go", SHARING_WRONG, suite, timeout=120)
    assert wrong.passed == [True, True, True, False, False, True, True], wrong.reasons
