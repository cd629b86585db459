#!/usr/bin/env python3
"""Fails when a Swift file reaches a platform module outside the `#if canImport` that guards it.

Linux CI cannot build for Apple platforms, so this keeps the imports portable by reading them:

- `import Glibc`, `Musl`, `Darwin` (and the other C library modules) and `import FoundationEssentials` must sit
  inside an `#if canImport(M)` / `#elseif canImport(M)` branch for that same module M;
- a group that imports Glibc or Musl must also have a `canImport(Darwin)` branch importing Darwin, unless the
  group sits inside an `#if os(Linux)` (or Android) branch, a file or block for Linux alone;
- a group that imports FoundationEssentials must have an `#else` (or `#elseif`) branch importing Foundation,
  the only one Apple platforms have;
- a name qualified by such a module (`Glibc.open`) must be inside a branch guarded for that module.

Usage: check-imports.py [PATH...]   (default: Sources Tools Benchmarks Tests)
       check-imports.py --self-test
"""

import os
import re
import sys

LIBC = {"Glibc", "Musl", "Darwin", "Bionic", "Android", "WASILibc", "ucrt", "WinSDK"}
GUARDED = LIBC | {"FoundationEssentials"}

IMPORT = re.compile(
    r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)")
DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$")
QUALIFIED = re.compile(r"(?<![\w.])(" + "|".join(sorted(LIBC)) + r")\.\w")


def guards(condition, module):
    """Whether `condition` holds only where `module` can be imported (a positive `canImport(module)`)."""
    return re.search(r"(?<!!)canImport\(\s*" + module + r"\s*\)", condition) is not None


def check(path, text):
    errors = []
    # Each open #if group: its clauses as [condition or None for #else, modules imported, line].
    stack = []
    in_block_comment = False
    for number, line in enumerate(text.split("\n"), 1):
        code = line
        if in_block_comment:
            end = code.find("*/")
            if end < 0:
                continue
            code = code[end + 2:]
            in_block_comment = False
        code = re.sub(r"/\*.*?\*/", "", code)
        if "/*" in code:
            code = code[:code.index("/*")]
            in_block_comment = True
        code = code.split("//", 1)[0]

        directive = DIRECTIVE.match(code)
        if directive:
            kind, rest = directive.group(1), directive.group(2).strip()
            if kind == "if":
                stack.append([[rest, set(), number]])
            elif not stack:
                errors.append((number, f"#{kind} without #if"))
            elif kind in ("elseif", "else"):
                stack[-1].append([rest if kind == "elseif" else None, set(), number])
            else:
                group = stack.pop()
                linux_only = any(linux_only_condition(c) for c in enclosing_conditions(stack))
                errors.extend(close(group, linux_only))
            continue

        enclosing = enclosing_conditions(stack)
        imported = IMPORT.match(code)
        if imported:
            module = imported.group(1)
            if stack:
                stack[-1][-1][1].add(module)
            if module in GUARDED and not any(guards(c, module) for c in enclosing):
                errors.append((number, f"`import {module}` outside `#if canImport({module})`"))
            continue
        for match in QUALIFIED.finditer(code):
            module = match.group(1)
            if not any(guards(c, module) for c in enclosing):
                errors.append((number, f"`{module}.` outside `#if canImport({module})`; use the unqualified name"))
    for group in stack:
        errors.append((group[0][2], "#if without #endif"))
    return [(path, number, message) for number, message in errors]


def enclosing_conditions(stack):
    """The conditions of the branches the current line is in (an `#else` adds none)."""
    return [clause[0] for group in stack for clause in group[-1:] if clause[0] is not None]


def linux_only_condition(condition):
    """Whether `condition` holds on Linux (or Android) alone: `os(Linux)` and no `||`."""
    return "||" not in condition and re.search(r"(?<!!)os\(\s*(Linux|Android)\s*\)", condition) is not None


def close(group, linux_only):
    """The errors of a finished #if group: a Linux libc without Darwin (outside a Linux-only branch),
    FoundationEssentials without Foundation."""
    errors = []
    imports = set().union(*(clause[1] for clause in group))
    line = group[0][2]
    for linux in ("Glibc", "Musl"):
        if linux in imports and "Darwin" not in imports and not linux_only:
            errors.append((line, f"imports {linux} but has no `#elseif canImport(Darwin)` branch importing Darwin"))
    if "FoundationEssentials" in imports and not any(
        "Foundation" in clause[1] for clause in group if clause[0] is None or not guards(clause[0], "FoundationEssentials")
    ):
        errors.append((line, "imports FoundationEssentials but has no `#else` branch importing Foundation"))
    return errors


def swift_files(paths):
    for root in paths:
        if os.path.isfile(root):
            yield root
            continue
        for directory, subdirectories, files in os.walk(root):
            subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(directory, name)


GOOD = [
    "#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Musl)\nimport Musl\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n",
    "#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n#endif\n",
    "#if canImport(Glibc)\n  import Glibc\n#elseif canImport(Darwin)\n  import Darwin\n#endif\nlet x = open(p, 0)\n",
    "#if canImport(Darwin)\nlet n = Darwin.fsync(fd)\n#endif\n// Glibc.open in a comment\n/* import Glibc */\n",
    "import Foundation\nimport Synchronization\n#if os(Linux)\nlet a = 1\n#endif\n",
    "#if os(Linux)\n#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Musl)\nimport Musl\n#endif\n#endif\n",
]
BAD = [
    ("import Glibc\n", "`import Glibc` outside"),
    ("import FoundationEssentials\n", "`import FoundationEssentials` outside"),
    ("@preconcurrency import Darwin\n", "`import Darwin` outside"),
    ("#if os(Linux)\nimport Glibc\n#endif\n", "`import Glibc` outside"),
    ("#if !canImport(Glibc)\nimport Glibc\n#endif\n", "`import Glibc` outside"),
    ("#if canImport(Glibc)\nimport Glibc\n#endif\n", "no `#elseif canImport(Darwin)`"),
    ("#if os(Linux) || os(macOS)\n#if canImport(Glibc)\nimport Glibc\n#endif\n#endif\n", "no `#elseif canImport(Darwin)`"),
    ("#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#endif\n", "no `#else` branch"),
    ("#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#endif\nlet r = Glibc.close(fd)\n",
     "`Glibc.` outside"),
    ("#if canImport(Glibc)\nimport Glibc\n", "#if without #endif"),
]


def self_test():
    failures = []
    for source in GOOD:
        if check("good.swift", source):
            failures.append(f"flagged a good file:\n{source}{check('good.swift', source)}")
    for source, expected in BAD:
        messages = [message for _, _, message in check("bad.swift", source)]
        if not any(expected in message for message in messages):
            failures.append(f"missed {expected!r} in:\n{source}(got {messages})")
    for failure in failures:
        print("self-test: " + failure, file=sys.stderr)
    return 1 if failures else 0


def main(arguments):
    if arguments == ["--self-test"]:
        return self_test()
    errors = []
    for path in swift_files(arguments or ["Sources", "Tools", "Benchmarks", "Tests"]):
        with open(path, encoding="utf-8") as file:
            errors.extend(check(path, file.read()))
    for path, number, message in errors:
        print(f"{path}:{number}: error: {message}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
