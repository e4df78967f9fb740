"""How the sandbox compiles Java, in one place: the javac command line the Java harnesses use
(``execution/languages/_java_harness.py``, ``_stdio.py``), and the class-data archive the image
holds for it (``docker/image.py``).

A Java suite runs javac twice (the program with its process, the checker), and most of a small
compile is javac's own start: loading and verifying the compiler's classes, then compiling them
with the JIT's optimising tier.  The image keeps an archive of the classes javac loads (the JDK's
AppCDS, ``-XX:ArchiveClassesAtExit``, made by compiling a small program once as the image is
built), and javac runs on the JIT's first tier only (``TieredStopAtLevel=1``), which suits a run
of a second or two.  Where a run compiles more than once, one JVM does it (``compiles``,
``SejuryJavac.java``), so the compiles after the first find javac loaded and warm.  None of this
changes what javac compiles or reports.
"""

from __future__ import annotations

from pathlib import Path

ARCHIVE = "/usr/lib/jvm/sejury-javac.jsa"
_VM = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")


def _javac(*vm: str) -> str:
    """javac with these options for its own JVM (``-J``), warnings off."""
    return " ".join(["javac", *(f"-J{opt}" for opt in vm), "-nowarn"])


JAVAC = _javac(f"-XX:SharedArchiveFile={ARCHIVE}", *_VM)

# the driver of ``compiles``, a file of every run that uses it (the JVM compiles it from source), in a
# folder of its own: a program's ``SejuryJavac.java`` is not it, and a source launcher that reads the
# files beside the one it runs (JDK 22's) finds none of the program's there
DRIVER_DIR = "javac-driver"
DRIVER = f"{DRIVER_DIR}/SejuryJavac.java"
DRIVER_SOURCE = (Path(__file__).parent / "SejuryJavac.java").read_text(encoding="utf-8")


def compiles(*tasks: tuple[str, str, str], said: str = "") -> str:
    """The shell command compiling each task in turn in one JVM, ``(ok, out, args)``: javac with
    ``args`` (warnings off, as ``JAVAC``), its diagnostics into the file ``out`` (``-``: standard
    output), and the file ``ok`` made where it compiled; the line ``said`` is printed as soon as the
    first task compiled (before the next begins).  It stops at the first task that does not
    compile, with status 1; the ``ok`` files say how far it came (even where the JVM was killed).
    The run's files must hold ``DRIVER_SOURCE`` as ``DRIVER``."""
    vm = " ".join((f"-XX:SharedArchiveFile={ARCHIVE}", *_VM))
    say = f"--said '{said}' " if said else ""
    return f"java {vm} {DRIVER} {say}" + " -- ".join(f"{ok} {out} -nowarn {args}" for ok, out, args in tasks)

# compiled once as the image is built, to make the archive: generics, lambdas, streams, records of
# what the harnesses' files use, so the classes javac loads for them are in it
_SAMPLE = ("import java.util.*; import java.util.function.*; import java.util.stream.*; "
           "public class SejuryWarm { interface Codec<T> { String show(T v); } "
           "static <T extends Comparable<T>> List<T> sorted(Collection<T> xs) { List<T> out = new ArrayList<>(xs); "
           "Collections.sort(out); return out; } "
           "public static void main(String[] args) throws Exception { Map<String, List<Long>> m = new HashMap<>(); "
           "m.computeIfAbsent(\\\"a\\\", k -> new ArrayList<>()).add(1L); Function<Long, Long> f = x -> x * 2; "
           "System.out.println(m.values().stream().flatMap(List::stream).map(f).collect(Collectors.toList())); "
           "Codec<Object> c = String::valueOf; try { throw new IllegalStateException(c.show(sorted(List.of(3, 1)))); } "
           "catch (RuntimeException e) { System.out.println(e.getMessage()); } } }")


def archive() -> str:
    """The shell command, run inside the image as it is built, that makes javac's class archive."""
    return (f'd=$(mktemp -d) && printf "%s\\n" "{_SAMPLE}" > "$d/SejuryWarm.java" && '
            f'{_javac(*_VM, f"-XX:ArchiveClassesAtExit={ARCHIVE}")} -d "$d" "$d/SejuryWarm.java" && '
            f'chmod 0644 {ARCHIVE} && rm -rf "$d"')
