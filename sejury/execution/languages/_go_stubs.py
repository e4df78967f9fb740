"""The sealed Go harness's checker stubs: each top-level function of the program, read with Go's
grammar (``signatures``), gets a stub of the same signature in the checker (``stub``) that sends
its arguments to the program's process (``sejuryCall`` in ``sealed_go/checker.go.txt``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sejury.execution.languages._go_lists import _nodes
from sejury.execution.languages._parsers import node_text, parser

if TYPE_CHECKING:
    import tree_sitter as ts


# Go's predeclared names (its universe block): a package-level declaration may take one, and then, in
# the checker's package, the harness's own ``panic``, ``recover``, ``nil`` or ``error`` would be the
# program's.  A function, type, constant or variable so named is not declared in the checker (a
# program's ``func panic(v interface{}) {}`` passed every check before, ``RUNNERS_VERSION`` 63).
PREDECLARED = frozenset((
    "any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32", "float64", "int", "int8",
    "int16", "int32", "int64", "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
    "true", "false", "iota", "nil",
    "append", "cap", "close", "complex", "copy", "delete", "imag", "len", "make", "new", "panic", "print",
    "println", "real", "recover"))


def _types(params: ts.Node) -> list[str] | None:
    """The type of each parameter (or result) of a Go list (``a, b int, c ...string`` -> int, int,
    ...string); None when one cannot be read."""
    out: list[str] = []
    for decl in params.named_children:
        if decl.type == "comment":
            continue
        kind = decl.child_by_field_name("type")
        if decl.type not in ("parameter_declaration", "variadic_parameter_declaration") or kind is None:
            return None
        text = ("..." if decl.type == "variadic_parameter_declaration" else "") + node_text(kind)
        out += [text] * max(1, len(decl.children_by_field_name("name")))
    return out


def signatures(program: str) -> list[tuple[str, list[str], list[str]]]:
    """Each top-level function the program declares (no method, no generic function, not ``main``
    or ``init``): (name, parameter types, result types), the types as written.  Only the header is
    read: a body the grammar cannot follow (tree-sitter's Go lags the compiler) loses no function.
    A program tree-sitter cannot read within the judge's limits (``_parse_guard``) has none: its
    tests then do not compile, which leaves a reference unscored and fails a candidate."""
    out = []
    try:
        tree = parser("go").parse(program.encode())
    except ValueError:  # over the parse's time or memory limit
        return []
    stack = list(reversed(tree.root_node.named_children))
    while stack:
        node = stack.pop()
        if node.type == "ERROR":  # what follows an unreadable part may sit inside it
            stack.extend(reversed(node.named_children))
            continue
        name, params = node.child_by_field_name("name"), node.child_by_field_name("parameters")
        result = node.child_by_field_name("result")
        if (node.type != "function_declaration" or name is None or params is None or params.has_error
                or node.child_by_field_name("type_parameters") or (result is not None and result.has_error)):
            continue
        if node_text(name) in ("main", "init") or node_text(name) in PREDECLARED:
            continue
        ptypes = _types(params)
        rtypes = [] if result is None else _types(result) if result.type == "parameter_list" else [node_text(result)]
        if ptypes is None or rtypes is None:
            continue
        out.append((node_text(name), ptypes, rtypes))
    return out


def stub(name: str, params: list[str], results: list[str]) -> str:
    return _stub_text(f"func {name}", name, params, results, [])


def _stub_text(head: str, called: str, params: list[str], results: list[str], before: list[str]) -> str:
    """A stub's text: ``head`` and the parameters, a call of ``called`` in the program's process with
    ``before`` (the receiver) and the parameters, its results returned."""
    variadic = bool(params) and params[-1].startswith("...")
    args = ", ".join(f"p{i} {t}" for i, t in enumerate(params))
    res = "" if not results else results[0] if len(results) == 1 else f"({', '.join(results)})"
    lines = [f"{head}({args}) {res} {{", *(f"\tvar r{i} {t}" for i, t in enumerate(results))]
    ins = [*before, *(f"&p{i}" for i in range(len(params)))]
    lines.append(f'\tsejuryCall("{called}", {str(variadic).lower()}, []interface{{}}{{{", ".join(ins)}}}, '
                 f'[]interface{{}}{{{", ".join(f"&r{i}" for i in range(len(results)))}}})')
    if results:
        lines.append("\treturn " + ", ".join(f"r{i}" for i in range(len(results))))
    return "\n".join(lines) + "\n}\n"


# ---- the program's declarations the checker shares: its types, constants and inert variables, and
# its methods (stubs that send the receiver with the arguments)

# an error a program's variable holds from the start (its sentinel errors: ``errors.Is`` crosses them)
_SENTINEL_CALLS = ("errors.New", "fmt.Errorf")
_LITERALS = {"interpreted_string_literal", "raw_string_literal"}
_IDENTIFIER = frozenset({"identifier"})


@dataclass(frozen=True)
class Method:
    type: str      # the receiver's type name
    pointer: bool  # a pointer receiver (``(*T).M``)
    name: str
    params: list[str]
    results: list[str]


@dataclass(frozen=True)
class Declarations:
    """What of the program the checker declares too (``declarations``): each text as written."""
    texts: list[str] = field(default_factory=list)      # type, const and var declarations
    imports: list[str] = field(default_factory=list)    # the imports under a name of their own (specs)
    types: list[str] = field(default_factory=list)      # the defined types' names (not aliases, not generic)
    sentinels: list[str] = field(default_factory=list)  # variables made by errors.New/fmt.Errorf of a literal
    methods: list[Method] = field(default_factory=list)


def _sentinel(value: ts.Node) -> bool:
    """``errors.New("...")`` or ``fmt.Errorf("...")``: one string literal, nothing else."""
    if value.type != "call_expression":
        return False
    fn, args = value.child_by_field_name("function"), value.child_by_field_name("arguments")
    return (fn is not None and args is not None and node_text(fn) in _SENTINEL_CALLS
            and len(args.named_children) == 1 and args.named_children[0].type in _LITERALS)


def _inert(node: ts.Node) -> bool:
    """An initializer that runs no code when the checker's package starts: literals, names, operators and
    composite literals, with no call (but a sentinel's), no function literal and no channel receive."""
    stack = [node]
    while stack:
        n = stack.pop()
        if (n.type == "call_expression" and not _sentinel(n)) or n.type in ("func_literal", "ERROR"):
            return False
        if n.type == "unary_expression" and (op := n.child_by_field_name("operator")) is not None \
                and node_text(op) == "<-":
            return False
        if n.type != "call_expression":
            stack.extend(n.children)
    return True


def _receiver(params: ts.Node) -> tuple[str, bool] | None:
    """A method's receiver type: (name, pointer) for ``T`` or ``*T``; None for a generic one."""
    decls = [d for d in params.named_children if d.type == "parameter_declaration"]
    kind = decls[0].child_by_field_name("type") if len(decls) == 1 else None
    pointer = kind is not None and kind.type == "pointer_type"
    if pointer and kind is not None:
        kind = kind.named_children[0] if kind.named_children else None
    return (node_text(kind), pointer) if kind is not None and kind.type == "type_identifier" else None


def declarations(program: str) -> Declarations:
    """The program's top-level types, constants, variables whose initializers are inert (``_inert``) and
    name no variable left out, imports under a name of their own, and methods on its types (not generic
    ones): declarations only (a type, a constant and such a variable run none of the program's code
    where they are declared)."""
    out = Declarations()
    try:
        tree = parser("go").parse(program.encode())
    except ValueError:
        return out
    specs: list[ts.Node] = []  # the variables', read after the rest
    for node in tree.root_node.named_children:
        if node.has_error:
            continue
        if node.type == "type_declaration":
            for spec in node.named_children:
                name = spec.child_by_field_name("name")
                if spec.type in ("type_spec", "type_alias") and name is not None and node_text(name) not in PREDECLARED:
                    out.texts.append("type " + node_text(spec))  # a generic one too (a field's type), but
                    if spec.type == "type_spec" and not spec.child_by_field_name("type_parameters"):
                        out.types.append(node_text(name))  # only the others are named across, with methods
        elif node.type == "const_declaration":  # whole (a spec may repeat the one before it)
            if not any(node_text(n) in PREDECLARED for spec in node.named_children
                       for n in spec.children_by_field_name("name")):
                out.texts.append(node_text(node))
        elif node.type == "var_declaration":
            specs.extend(spec for spec in node.named_children if spec.type == "var_spec")
        elif node.type == "import_declaration":
            imported = (c for n in node.named_children for c in ([n] if n.type == "import_spec" else n.named_children))
            for spec in imported:
                name = spec.child_by_field_name("name")
                if spec.type == "import_spec" and name is not None and name.type == "package_identifier" \
                        and node_text(name) not in PREDECLARED:
                    out.imports.append(node_text(spec))
    _variables(specs, out)
    defined = set(out.types)
    for node in tree.root_node.named_children:
        if node.type != "method_declaration" or node.has_error:
            continue
        recv, name = node.child_by_field_name("receiver"), node.child_by_field_name("name")
        params, result = node.child_by_field_name("parameters"), node.child_by_field_name("result")
        got = _receiver(recv) if recv is not None else None
        if got is None or got[0] not in defined or name is None or params is None:
            continue
        ptypes = _types(params)
        rtypes = [] if result is None else _types(result) if result.type == "parameter_list" else [node_text(result)]
        if ptypes is not None and rtypes is not None:
            out.methods.append(Method(got[0], got[1], node_text(name), ptypes, rtypes))
    return out


def _variables(specs: list[ts.Node], out: Declarations) -> None:
    """The variables the checker declares: those whose initializers are inert and name no variable left
    out (``var lookup = map[string][]string{"en": names}`` where ``names`` is made by a call)."""
    def names(spec: ts.Node) -> set[str]:
        return {node_text(n) for n in spec.children_by_field_name("name")}

    left = {n for spec in specs for n in names(spec) if ((value := spec.child_by_field_name("value")) is not None
            and not _inert(value)) or n in PREDECLARED}
    kept = [spec for spec in specs if not names(spec) & left]
    while True:  # a variable naming one left out is left out too, and so on
        named = [spec for spec in kept if (value := spec.child_by_field_name("value")) is not None
                 and {node_text(n) for n in _nodes(value, _IDENTIFIER)} & left]
        if not named:
            break
        left |= set().union(*(names(spec) for spec in named))
        kept = [spec for spec in kept if spec not in named]
    for spec in kept:
        out.texts.append("var " + node_text(spec))
        value = spec.child_by_field_name("value")
        values = value.named_children if value is not None else []
        for name, made in zip(spec.children_by_field_name("name"), values, strict=False):
            if len(values) == len(spec.children_by_field_name("name")) and _sentinel(made):
                out.sentinels.append(node_text(name))


def method_stub(m: Method) -> str:
    """The checker's method: the receiver crosses with the arguments (its method expression's first);
    a pointer receiver's object, like any shared argument's, comes back into the test's own
    (``sejuryCall``)."""
    recv = f"*{m.type}" if m.pointer else m.type
    return _stub_text(f"func (sejuryR {recv}) {m.name}", f"{m.type}.{m.name}", m.params, m.results, ["&sejuryR"])


def tables(decls: Declarations) -> str:
    """The program's types by name and its sentinel errors, which the codec reads on both sides (each
    side's own types and variables, declared alike)."""
    types = "".join(f'\t"{t}": sejuryreflect.TypeOf((*{t})(nil)).Elem(),\n' for t in decls.types)
    sentinels = "".join(f'\t{{"{s}", &{s}}},\n' for s in decls.sentinels)
    return (f"var sejuryProgramTypes = map[string]sejuryreflect.Type{{\n{types}}}\n\n"
            f"var sejurySentinels = []sejurySentinel{{\n{sentinels}}}\n")


def dispatch(functions: list[str], decls: Declarations) -> str:
    """The program side's table of what the checker may call: each function, each method by its
    method expression."""
    return "\n".join([*(f'\t"{name}": {name},' for name in functions),
                      *(f'\t"{m.type}.{m.name}": ({"*" if m.pointer else ""}{m.type}).{m.name},'
                        for m in decls.methods)])
