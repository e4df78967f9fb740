"""Java's data classes: the program's types whose objects the tests can make without the program.

A test that writes its expected value as ``new Money(150)`` or ``new Point(4, 6)`` with the program's
class made that object in the program's process, so the program saw the expected value before it
answered and could answer with a copy of it (a mirror). Where the class is plain data, the checker
needs no program to make one: the stub keeps the constructor's arguments as the object's fields
(``Sejury.Local``), the program gets the object only when the test hands it over (a method called on
it, an argument), and a comparison of it with the program's answer reads the answer's fields first:
a record's equals over data is decided on the fields alone; a class's own equals is asked too, after
the answer was read, and must agree with the fields (``Sejury.same``).

A data class (read from the cleaned program, ``_java_stubs.cleaned``): a top-level ``record`` with no
constructor of its own, or a top-level ``class`` with no type parameters, no superclass and no
subclass of the program's, not abstract, whose instance fields are declared without initializers and
whose every constructor's body only assigns its parameters to fields of the same type
(``this.cents = cents;``); no instance initializer; every field of a type whose kind and equality the
declaration fixes (below) or of another data class.  Anything else is made in the program's process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sejury.execution.languages._java_repairs import read_params

_PRIMITIVE = {"byte", "short", "int", "long", "float", "double", "boolean", "char"}
# a field's type that crosses as data, whose kind its declaration fixes and whose equals is its
# content's: not an array (a record's equals and ``==`` compare one by identity), not ``Object``,
# ``Number`` or ``Optional`` (a ``Set`` and a ``List``, ``Optional.empty()`` and ``null``, an ``Integer``
# and a ``Long`` would be written alike); collections of such types are data but not immutable
_SCALAR = {"byte", "short", "int", "long", "float", "double", "boolean", "char", "String", "Byte", "Short", "Integer",
           "Long", "Float", "Double", "Boolean", "Character"}
_BOXED = _SCALAR - _PRIMITIVE
_GENERIC = re.compile(r"(List|Set|Map)<(.*)>")


def _type_args(text: str) -> list[str]:
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text + ","):
        depth += {"<": 1, ">": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    return out


def _is_data(kind: str, classes: set[str], top: bool = True) -> bool:
    """Whether a (whitespace-free) field type is data as above; ``classes``: the data classes."""
    if kind in (_SCALAR if top else _BOXED) or kind in classes:
        return True
    m = _GENERIC.fullmatch(kind)
    if m is None:
        return False
    args = _type_args(m.group(2))
    return len(args) == (2 if m.group(1) == "Map" else 1) and all(_is_data(a, classes, top=False) for a in args)


_MODS = r"(?:(?:public|protected|private|static|final|transient|volatile)\s+)*"
_FIELD = re.compile(rf"^(?P<mods>{_MODS})(?P<type>[\w<>\[\],.?\s]+?)\s+(?P<names>\w+(?:\s*,\s*\w+)*)$")
_CTOR_HEAD = r"^(?:(?:public|protected|private)\s+)?{cls}\s*\((?P<params>[^)]*)\)$"
_ASSIGN = re.compile(r"^(?:this\s*\.\s*)?(?P<field>\w+)\s*=\s*(?P<param>\w+)$")
_TYPE_HEAD = re.compile(r"\b(?:class|interface|record|enum)\s+\w+")
_HASH = re.compile(r"\bint\s+hashCode\s*\(\s*\)")
_EQUALS = re.compile(r"\bboolean\s+equals\s*\(\s*(?:final\s+)?(?:java\.lang\.)?Object\s+\w+\s*\)")


@dataclass(frozen=True)
class DataClass:
    """What the checker needs to make one: the fields (sorted by name, as the program's side writes
    an object's state), each constructor's assignments (a field per parameter, in the parameters'
    order), whether its equality is its own ``equals``, a record's, or identity, and whether its
    fields can change after it is made."""

    fields: tuple[tuple[str, str], ...]  # (type, name), by name
    ctors: tuple[tuple[tuple[tuple[str, str], ...], tuple[str | None, ...]], ...]  # params, field of each
    equality: str  # "own", "record" or "identity"
    immutable: bool  # (until ``data_classes`` decides: every field final)
    hashed: bool  # its hashCode is its own (a record's, or one it declares), else Object's (identity)


def norm_type(kind: str) -> str:
    """A declared type as the data classes compare them: no ``final``, no spaces."""
    return re.sub(r"\s+", "", re.sub(r"\bfinal\s+", "", kind))


def _members(body: str) -> list[tuple[str, str | None]] | None:
    """A class body's members at its top: (header, block) for each ``... { ... }``, (statement,
    None) for each ``...;``; None where the body does not split so (an unbalanced brace)."""
    out: list[tuple[str, str | None]] = []
    depth, start, open_at = 0, 0, 0
    for i, ch in enumerate(body):
        if ch == "{":
            if depth == 0:
                open_at = i
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return None
            if depth == 0:
                out.append((body[start:open_at].strip(), body[open_at + 1:i]))
                start = i + 1
        elif ch == ";" and depth == 0:
            out.append((body[start:i].strip(), None))
            start = i + 1
    if depth != 0 or body[start:].strip():
        return None
    return out


def _params(text: str) -> list[tuple[str, str]] | None:
    """A constructor's parameters (``_java_repairs.read_params``), None where one is not read or is
    varargs (an array the caller builds)."""
    found = read_params(text)
    return None if found is None or any(t.endswith("...") for t, _ in found) else found


def _without_annotations(text: str) -> str:
    return re.sub(r"@\w+(?:\s*\([^)]*\))?\s*", "", text).strip()


def _class(name: str, members: list[tuple[str, str | None]]) -> DataClass | None:
    fields: dict[str, tuple[str, bool]] = {}  # name -> (type, final)
    ctors = []
    own_equals = own_hash = False
    for head, block in members:
        head = _without_annotations(head)
        if block is None:
            if not head:
                continue
            if "=" in head:
                if "static" not in head.split("=")[0].split():
                    return None  # an instance field's initializer: the program's code at construction
                continue
            if "(" in head:
                return None  # an abstract or native method
            m = _FIELD.match(head)
            if m is None:
                return None
            mods = m.group("mods").split()
            if "static" in mods:
                continue
            for n in re.split(r"\s*,\s*", m.group("names")):
                fields[n] = (norm_type(m.group("type")), "final" in mods)
            continue
        if not head:
            return None  # an instance initializer block
        if "=" in head:  # a field's initializer with a block (a lambda's, an anonymous class's)
            if "static" not in head.split("=")[0].split():
                return None
            continue
        if head == "static":
            return None  # a static initializer: the program's code, run where the class is first used
        if _TYPE_HEAD.search(head):
            continue  # a nested type: no field of this class's objects
        if re.match(rf"^(?:(?:public|protected|private)\s+)?<[^>]*>\s*{re.escape(name)}\s*\(", head):
            return None  # a generic constructor (not read)
        if re.match(rf"^(?:(?:public|protected|private)\s+)?{re.escape(name)}\s*\(", head):
            c = re.match(_CTOR_HEAD.format(cls=re.escape(name)), head)
            ps = _params(c.group("params")) if c is not None else None
            if ps is None:
                return None  # (a constructor that throws, or whose parameters are not read)
            ctors.append((ps, block))
            continue
        if "(" not in head:
            return None
        own_equals = own_equals or _EQUALS.search(head) is not None
        own_hash = own_hash or _HASH.search(head) is not None
    made = []
    for ps, block in ctors or [([], "")]:  # (no constructor: the default one)
        names = {n: norm_type(t) for t, n in ps}
        assigned: dict[str, str] = {}
        for statement in (s.strip() for s in block.split(";")):
            if not statement or re.fullmatch(r"super\s*\(\s*\)", statement):
                continue
            a = _ASSIGN.fullmatch(statement)
            if a is None:
                return None
            f, p = a.group("field"), a.group("param")
            if not statement.startswith("this") and f in names:
                return None  # assigns the parameter, not the field
            if f not in fields or p not in names or f in assigned or names[p] != fields[f][0]:
                return None
            assigned[f] = p
        by_param = {p: f for f, p in assigned.items()}
        if len(by_param) != len(assigned):
            return None  # one parameter in two fields
        made.append((tuple((names[n], n) for _, n in ps), tuple(by_param.get(n) for _, n in ps)))
    return DataClass(tuple(sorted(((t, n) for n, (t, _) in fields.items()), key=lambda f: f[1])), tuple(made),
                     "own" if own_equals else "identity", all(final for _, final in fields.values()), own_hash)


def _record(parts: str, name: str, members: list[tuple[str, str | None]]) -> DataClass | None:
    ps = _params(parts)
    if ps is None:
        return None
    own_equals = False
    for head, block in members:
        head = _without_annotations(head)
        if block is None:
            continue  # a static field (a record has no other fields)
        if head == "static":
            return None  # a static initializer
        if re.match(rf"^(?:(?:public|protected|private)\s+)?{re.escape(name)}\s*(?:\(|$)", head):
            return None  # a canonical or compact constructor: the program's code at construction
        if _EQUALS.search(head):
            own_equals = True
    fields = tuple(sorted(((norm_type(t), n) for t, n in ps), key=lambda f: f[1]))
    return DataClass(fields, ((tuple((norm_type(t), n) for t, n in ps), tuple(n for _, n in ps)),),
                     "own" if own_equals else "record", True, True)


def data_classes(found: list[tuple[re.Match[str], str]]) -> dict[str, DataClass]:
    """Of the program's top-level types (``_java_stubs._top_level``'s matches and bodies), its data
    classes by name."""
    extended = {re.sub(r"\s*<.*", "", m.group("base") or "").strip() for m, _ in found}
    out: dict[str, DataClass] = {}
    for m, body in found:
        name, kind = m.group("name"), m.group("kind")
        mods = m.group("mods").split()
        if kind not in ("class", "record") or m.group("params") or "abstract" in mods or name in extended:
            continue
        if kind == "class" and m.group("base"):
            continue
        members = _members(body)
        if members is None:
            continue
        got = _record(m.group("parts") or "", name, members) if kind == "record" else _class(name, members)
        if got is not None:
            out[name] = got
    # a field of one of the program's other types is data only where that type is a data class; an
    # object is immutable where its fields are final and of immutable types (another data class's too)
    changed = True
    while changed:
        changed = False
        for name, d in list(out.items()):
            if not all(_is_data(t, set(out)) for t, _ in d.fields):
                del out[name]
                changed = True
            elif d.immutable and not all(t in _SCALAR or (t in out and out[t].immutable) for t, _ in d.fields):
                out[name] = DataClass(d.fields, d.ctors, d.equality, False, d.hashed)
                changed = True
            elif d.equality == "record" and any(out[k].equality == "own" for t, _ in d.fields
                                                 for k in re.findall(r"\w+", t) if k in out):
                # a record's equals asks its parts' own equals: the program's code decides it too
                out[name] = DataClass(d.fields, d.ctors, "own", d.immutable, d.hashed)
                changed = True
    return out
