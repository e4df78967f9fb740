"""Java's sealed harness's stubs: the checker's view of the program's classes, generated from its text.

Nothing of the program's text reaches the checker but names and types read from a cleaned copy
(``cleaned``: its unicode escapes decoded as javac decodes them, its comments and literals blanked)
that match a strict grammar (``_java_repairs.SAFE``): a header or a member that does not is left out, and a
top-level type of the program's with no stub gets one that cannot be used (``_blocker``), so a test
never takes a JDK class of the same name (``java.util.Stack``) for the program's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sejury.execution.languages import _clike
from sejury.execution.languages._java_data import DataClass, data_classes, norm_type
from sejury.execution.languages._java_repairs import CLASS, NOT_TYPES, read_params, safe

_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u+([0-9a-fA-F]{4})")


_OPENS = re.compile(r"//|/\*|\"|'")  # what opens a comment or a literal


def _text_block_end(text: str, i: int) -> int:
    """Where the text block opened at ``i`` (``\"\"\"``) ends: after its closing quotes (escapes skipped)."""
    j = i + 3
    while j < len(text) and not text.startswith('"""', j):
        j += 2 if text[j] == "\\" else 1
    return min(len(text), j + 3)


def cleaned(program: str) -> str:
    """``program`` as its stubs are read: unicode escapes decoded (javac reads them before anything
    else: ``\\u007b`` is a ``{``), then every comment and string, character and text-block literal
    blanked (spaces; its line breaks kept)."""
    text = _ESCAPE.sub(lambda m: m.group(1) + chr(int(m.group(2), 16)), program)
    out, i = [], 0
    while (m := _OPENS.search(text, i)) is not None:
        out.append(text[i:m.start()])
        i = m.start()
        if m.group() == "//":
            j = text.find("\n", i)
            j = len(text) if j < 0 else j
        elif m.group() == "/*":
            j = text.find("*/", i + 2)
            j = len(text) if j < 0 else j + 2
        elif text.startswith('"""', i):
            j = _text_block_end(text, i)
        else:
            j = _clike.string_end(text, i) + 1
        out.append(re.sub(r"[^\n]", " ", text[i:j]))
        i = j
    out.append(text[i:])
    return "".join(out)


def _blocker(name: str) -> str:
    """A stub of a type of the program's that cannot be stubbed: it shadows a JDK type of the same
    name, as the program's does, and a test using it does not compile."""
    return f"final class {name} {{\n  private {name}() {{}}\n}}"


_SIGNATURE = re.compile(r"^\s*(?P<mods>(?:(?:public|private|protected|static|final|synchronized)\s+)*)"
                        r"(?P<gen><[^>]+>\s+)?(?P<ret>[\w<>\[\],.?\s]+?)\s+(?P<name>\w+)\s*\((?P<params>.*?)\)\s*"
                        r"(?:throws\s+[\w\s,.]+)?\{")


def stubs(program: str) -> str:
    """Each top-level class of the program with its methods as stubs that call the program's
    process (``Sejury.call``) and read the answer by the method's declared generic return type
    (the stubs before objects: where ``object_stubs``' do not compile)."""
    program = cleaned(program)
    classes = []
    for m in CLASS.finditer(program):
        cls = m.group(1)
        if cls.startswith("Sejury"):  # the harness's names (its own classes are in package ``sejury``)
            continue
        body = _clike.block_bodies(program[m.start():], re.compile(r"\{"))[:1]
        methods, depth = [], 0
        for line in (body[0] if body else "").splitlines():
            d = depth
            depth += _clike.brace_balance(line)
            s = _SIGNATURE.match(line) if d == 0 else None
            if s is None or s.group("name") in (cls, "main") or set(s.group("ret").split()) & NOT_TYPES:
                continue
            params = read_params(s.group("params"))
            if params is None or not safe(s.group("gen"), s.group("ret")):
                continue
            static = "static" in s.group("mods").split()
            ret = s.group("ret").strip()
            call = (f'Sejury.call("{cls}", "{s.group("name")}", {str(static).lower()}, new Object[]{{'
                    + ", ".join(n for _, n in params)
                    + "}, new Object(){}.getClass().getEnclosingMethod().getGenericReturnType())")
            head = f"  {s.group('mods')}{s.group('gen') or ''}{ret} {s.group('name')}(" + \
                ", ".join(f"{t} {n}" for t, n in params) + ") {"
            statement = f"{call};" if ret == "void" else f"return ({ret}) {call};"
            methods.append(f"{head}\n    {statement}\n  }}")
        classes.append(f"class {cls} {{\n" + "\n".join(methods) + "\n}")
    return "\n".join(classes)


# ---- the program's classes in the checker: stubs whose objects are handles of the program's own

# a class, interface or record at the top of the program: its type parameters, record components,
# superclass and interfaces
_TYPE = re.compile(r"^[ \t]*(?:@\w+(?:\s*\([^)]*\))?\s+)*"
                   r"(?P<mods>(?:(?:public|final|abstract|static|sealed|non-sealed|strictfp)\s+)*)"
                   r"(?P<kind>class|interface|record)\s+(?P<name>\w+)\s*(?P<params><[^{(]*?>)?\s*"
                   r"(?:\((?P<parts>[^)]*)\))?\s*(?:extends\s+(?P<base>[^{]+?))?\s*"
                   r"(?:implements\s+(?P<ifaces>[^{]+?))?\s*(?:permits\s+[^{]+?)?\s*\{", re.M)
_CONSTANT = re.compile(r"^\s*(?P<mods>(?:(?:public|protected|static|final)\s+)+)(?P<type>[\w<>\[\],.?\s]+?)\s+"
                       r"(?P<name>\w+)\s*=")
_ABSTRACT = re.compile(r"^\s*(?P<mods>(?:(?:public|protected|abstract|static)\s+)*)(?P<gen><[^>]+>\s+)?"
                       r"(?P<ret>[\w<>\[\],.?\s]+?)\s+(?P<name>\w+)\s*\((?P<params>.*?)\)\s*(?:throws\s+[\w\s,.]+)?;")
# a constant's type that crosses as data (a ``Pattern`` or a ``Random`` does not: such a constant is left out)
_DATA = re.compile(r"(?:(?:byte|short|int|long|float|double|boolean|char|String|Byte|Short|Integer|Long|Float|Double"
                   r"|Boolean|Character)(?:\[\])*|(?:List|Set|Map)<[\w<>,\s\[\]]+>)")
_OBJECT_METHODS = {"equals", "hashCode", "toString", "main", "getClass", "wait", "notify", "notifyAll", "finalize",
                   "clone"}


_DECLARES_TYPE = re.compile(r"\b(?:class|interface|record|enum)\s+(\w+)")


def _at_top(program: str, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` at the (cleaned) program's top level: outside every brace, the
    depth counted on from one match to the next."""
    depth, at = 0, 0
    for m in pattern.finditer(program):
        depth += _clike.brace_balance(program[at:m.start()])
        at = m.start()
        if depth == 0:
            yield m


def _declared(program: str) -> set[str]:
    """The names of every top-level type the (cleaned) program declares, however its header reads."""
    return {m.group(1) for m in _at_top(program, _DECLARES_TYPE)}


def _top_level(program: str) -> Iterator[tuple[re.Match[str], str]]:
    """Each type declared at the program's top level, with its body."""
    for m in _at_top(program, _TYPE):
        body = _clike.block_bodies(program[m.end() - 1:], re.compile(r"\{"))[:1]
        yield m, body[0] if body else ""


def _erased(kind: str) -> str:
    """A parameter's type as ``Class.getSimpleName`` has it: no package, no type arguments, varargs an array."""
    kind = re.sub(r"<.*>", "", re.sub(r"\bfinal\s+", "", kind)).replace("...", "[]").replace(" ", "")
    return kind.rsplit(".", 1)[-1]


def _call(cls: str, name: str, target: str, params: list[tuple[str, str]]) -> str:
    """A stub's call: its name with its parameters' types, so the program's overload of that arity is found."""
    name = f"{name}({','.join(_erased(t) for t, _ in params)})"
    return (f'Sejury.call("{cls}", "{name}", {target}, new Object[]{{' + ", ".join(n for _, n in params)
            + "}, new Object(){}.getClass().getEnclosingMethod().getGenericReturnType())")


def _stub_method(cls: str, mods: str, gen: str, ret: str, name: str, params: list[tuple[str, str]], *,
                 interface: bool) -> str:
    static = "static" in mods.split()
    mods = " ".join(w for w in mods.split() if w not in ("abstract", "default", "synchronized", "final"))
    head = f"  {mods + ' ' if mods else ''}{'default ' if interface and not static else ''}{gen}{ret} {name}(" + \
        ", ".join(f"{t} {n}" for t, n in params) + ") {"
    call = _call(cls, name, "null" if static else "this", params)
    return f"{head}\n    {call};\n  }}" if ret == "void" else f"{head}\n    return ({ret}) {call};\n  }}"


_OBJECT_STUBS = ["  @Override public boolean equals(Object o) { return Sejury.same(this, o); }",
                 "  @Override public int hashCode() { return Sejury.hash(this); }",
                 "  @Override public String toString() { return Sejury.show(this); }"]
_DEFAULTS = {"byte": "(byte) 0", "short": "(short) 0", "int": "0", "long": "0L", "float": "0.0f", "double": "0.0",
             "boolean": "false", "char": "'\\0'"}


def _data_root(cls: str, data: DataClass) -> list[str]:
    """A data class's root stub (``_java_data``): its object is the test's own (``Sejury.Local``: the
    fields the constructor was given) until the program needs it, then made there once."""
    names = ", ".join(f'"{n}"' for _, n in data.fields)
    return [f'  private static final Sejury.Shape sejuryData = new Sejury.Shape("{cls}", "{data.equality}", '
            f"{str(data.immutable).lower()}, {str(data.hashed).lower()}, new String[]{{{names}}});",
            "  Sejury.Ref sejuryRef;",
            "  Sejury.Local sejuryLocal;",
            "  public final Sejury.Ref sejuryRef() {",
            "    if (sejuryRef == null) { sejuryRef = Sejury.make(sejuryLocal); Sejury.keep(this); "
            "sejuryLocal = Sejury.kept(sejuryLocal); }",
            "    return sejuryRef;",
            "  }",
            "  public final Sejury.Local sejuryLocal() { return sejuryLocal; }",
            "  public final Sejury.Shape sejuryShape() { return sejuryData; }",
            "  public final boolean sejuryGiven() { return sejuryRef != null; }",
            f"  {cls}(Sejury.Ref r) {{ sejuryRef = r; Sejury.keep(this); }}",
            f"  private {cls}(Sejury.Local l) {{ sejuryLocal = l; }}",
            *_OBJECT_STUBS]


def _made_here(data: DataClass, params: list[tuple[str, str]]) -> str | None:
    """The fields (by name) a data class's constructor of ``params`` gives its object, as a Java
    array; None where that constructor is not one the analysis read (then the program makes it)."""
    for ps, fields in data.ctors:
        if [t for t, _ in ps] == [norm_type(t) for t, _ in params]:
            given = {f: n for f, (_, n) in zip(fields, params, strict=True) if f is not None}
            return "new Object[]{" + ", ".join(given.get(n, _DEFAULTS.get(t, "null")) for t, n in data.fields) + "}"
    return None


def object_stubs(program: str) -> str:
    """The program's top-level classes, interfaces and records as stubs: each object of one is a
    handle of the program's object (``Sejury.Ref``; the root stub keeps it, one stub per object),
    made by the program's constructors, its methods and static methods called in the program's
    process, its static final data constants read from there when first used; ``equals`` decided
    by the objects' fields as data and the program's equals together (``Sejury.same``), ``hashCode``
    and ``toString`` the program's (``Sejury.hash``, ``Sejury.show``).  A data class's object the test
    makes stays the test's until the program needs it (``_java_data``, ``_data_root``).  Instance
    fields and nested types are not stubbed, and an enum or a type whose header is not of the strict
    form gets a stub that cannot be used: a test using them does not compile."""
    program = cleaned(program)
    found = [(m, body) for m, body in _top_level(program) if not m.group("name").startswith("Sejury")
             and safe(m.group("params"), m.group("base"), m.group("ifaces"))
             and read_params(m.group("parts") or "") is not None]
    own = {m.group("name") for m, _ in found}
    plain = data_classes(found)
    out = [_blocker(name) for name in sorted(_declared(program) - own) if not name.startswith("Sejury")]
    for m, body in found:
        cls, kind = m.group("name"), m.group("kind")
        params = m.group("params") or ""
        bare = re.sub(r"\s*<.*", "", m.group("base") or "").strip()
        members: list[str] = []
        depth = 0
        ctors = []
        for line in body.splitlines():
            d = depth
            depth += _clike.brace_balance(line)
            if d != 0:
                continue
            line = re.sub(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)+", " ", line)  # without its annotations (@Override)
            c = re.match(rf"^\s*(?P<mods>(?:(?:public|protected|private)\s+)?){cls}\s*\((?P<params>.*?)\)\s*"
                         r"(?:throws\s+[\w\s,.]+)?\{", line)
            if c:
                ps = read_params(c.group("params"))
                if "private" not in c.group("mods") and ps is not None:
                    ctors.append(ps)
                continue
            s = _SIGNATURE.match(line) or _ABSTRACT.match(line)
            ps = read_params(s.group("params")) if s else None
            if s and ps is not None and safe(s.group("gen"), s.group("ret")) \
                    and s.group("name") not in _OBJECT_METHODS and not set(s.group("ret").split()) & NOT_TYPES \
                    and "private" not in s.group("mods").split() and s.group("ret").strip() != "default":
                members.append(_stub_method(cls, s.group("mods"), s.group("gen") or "", s.group("ret").strip(),
                                            s.group("name"), ps, interface=kind == "interface"))
                continue
            k = _CONSTANT.match(line) if kind != "interface" else None
            if k and {"static", "final"} <= set(k.group("mods").split()) and _DATA.fullmatch(k.group("type").strip()):
                t, n = k.group("type").strip(), k.group("name")
                read = _call(cls, "#" + n, "null", [])  # the server reads ``#NAME`` as a static field
                members.append(f"  private static {t} sejury_{n}() {{\n    return ({t}) {read};\n  }}\n"
                               f"  {k.group('mods').strip()} {t} {n} = sejury_{n}();")
        if kind == "interface":
            extends = f" extends {m.group('base')}" if m.group("base") else ""
            out.append(f"interface {cls}{params}{extends} {{\n" + "\n".join(members) + "\n}")
            continue
        if kind == "record":
            parts = read_params(m.group("parts") or "") or []
            ctors = [parts]
            members += [f"  public {t} {n}() {{\n    return ({t}) {_call(cls, n, 'this', [])};\n  }}" for t, n in parts]
        root = bare not in own
        ifaces = [x for x in [m.group("ifaces") or ""] if x.strip()] + ["Sejury.Obj"]
        # a superclass of the program's, or an exception of the JDK's; not another JDK class (an
        # ``ArrayList``'s inherited methods would run on the stub's own list, here)
        throwable = re.search(r"(?:Exception|Error|Throwable)$", bare) is not None
        extends = f" extends {m.group('base')}" if kind == "class" and (bare in own or throwable) else ""
        abstract = "abstract " if "abstract" in m.group("mods").split() else ""
        head = [f"{abstract}class {cls}{params}{extends} implements {', '.join(ifaces)} {{"]
        data = plain.get(cls)
        if data is not None:
            head += _data_root(cls, data)
        elif root:
            # an exception of the program's (``extends RuntimeException``): its message, read once
            message = "super(Sejury.message(r)); " if throwable else ""
            head += ["  final Sejury.Ref sejuryRef;",
                     "  public final Sejury.Ref sejuryRef() { return sejuryRef; }",
                     f"  {cls}(Sejury.Ref r) {{ {message}sejuryRef = r; Sejury.keep(this); }}",
                     *_OBJECT_STUBS]
        else:
            head.append(f"  {cls}(Sejury.Ref r) {{ super(r); }}")
        for ps in ctors or [[]]:
            sig = ",".join(_erased(t) for t, _ in ps)
            args = "new Object[]{" + ", ".join(n for _, n in ps) + "}"
            made = _made_here(data, ps) if data is not None else None
            body = (f"this(Sejury.local(sejuryData, \"{sig}\", {args}, {made}));" if made is not None
                    else f"this(Sejury.make(\"{cls}\", \"{sig}\", {args}));")
            head.append(f"  {cls}(" + ", ".join(f"{t} {n}" for t, n in ps) + f") {{ {body} }}")
        out.append("\n".join(head + members) + "\n}")
    return "\n".join(out)
