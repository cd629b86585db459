#!/usr/bin/env python3
"""Fails when the code uses a standard-library API that is newer than the Apple minimums in Package.swift.

On Linux the compiler ignores `@available(macOS …)`, so an API that only exists from macOS 26 (say
`Array.span`) builds and passes here, and breaks the first macOS 15 or iOS 18 build. This check reads, after a
debug build, every reference the package's own files make (SwiftPM's index store, through libIndexStore), and
looks each referenced declaration up in the symbol graphs of the toolchain's modules (Swift, _Concurrency,
Synchronization, _StringProcessing, Dispatch, FoundationEssentials, Foundation, Testing), which carry the
Apple availability the standard library declares. Any declaration introduced after the package's minimum for
that platform is reported with the place that uses it, and so is, in Sources/ (whose targets turn warnings into
errors), one deprecated on an Apple platform at or before that minimum: Darwin would warn where Linux is silent.

What it cannot see: a conformance that is newer than its type (`enumerated().reversed()` picks
EnumeratedSequence's OS-26 BidirectionalCollection conformance through an old `reversed()`), runtime features
without a declaration (typed-throws function types, noncopyable generics: both macOS 15), and Apple's own
Foundation, which is not swift-foundation (only swift-foundation's annotations are checked). And one kind of
false alarm: a protocol requirement added later than its default implementation is reported at the
requirement's version (`FixedWidthInteger.&*`, a macOS 15 requirement, for every `&*`); it only shows with a
floor below macOS 15.

Usage: check-availability.py [--floor macOS=13.0 …]   (from the package root, after `swift build` or `swift test`)
       --floor replaces Package.swift's minimum for a platform: `--floor macOS=14.0` must report the Mutex uses,
       which shows the check still sees them.
"""

import ctypes as C
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

MODULES = ["Swift", "_Concurrency", "Synchronization", "_StringProcessing", "Dispatch", "FoundationEssentials",
           "Foundation", "Testing"]
DOMAINS = {"macos": "macOS", "ios": "iOS", "tvos": "tvOS", "watchos": "watchOS", "visionos": "visionOS"}


def version(text):
    return tuple(int(part) for part in text.split("."))


def minimums():
    """The package's `platforms:`, as {"macOS": (15, 0), …}."""
    package = json.loads(subprocess.check_output(["swift", "package", "dump-package"], text=True))
    return {DOMAINS[p["platformName"]]: version(p["version"]) for p in package.get("platforms") or []
            if p["platformName"] in DOMAINS}


def availability(triple, imports, work):
    """USR → {platform: introduced} for the public declarations of MODULES."""
    extract = shutil.which("swift-symbolgraph-extract")
    for module in MODULES:
        subprocess.run([extract, "-module-name", module, "-target", triple, "-output-dir", work,
                        "-minimum-access-level", "public", "-I", imports],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    table = {}
    for path in glob.glob(os.path.join(work, "*.symbols.json")):
        with open(path) as file:
            graph = json.load(file)
        for symbol in graph["symbols"]:
            introduced, deprecated = {}, {}
            for entry in symbol.get("availability", []):
                if entry.get("domain") not in DOMAINS.values():
                    continue
                for key, into in (("introduced", introduced), ("deprecated", deprecated)):
                    if key in entry:
                        v = entry[key]
                        into[entry["domain"]] = (v.get("major", 0), v.get("minor", 0), v.get("patch", 0))
            if introduced or deprecated:
                table[symbol["identifier"]["precise"]] = (symbol["names"]["title"], introduced, deprecated)
    return table


def references(library, store_path, root):
    """(usr, name, "file:line") for every reference made by a source file under `root` (outside .build)."""
    lib = C.CDLL(library)

    class StringRef(C.Structure):
        _fields_ = [("data", C.c_char_p), ("length", C.c_size_t)]

    def text(ref):
        return C.string_at(ref.data, ref.length).decode() if ref.length else ""

    pointer = C.c_void_p
    for name, result, arguments in [
        ("indexstore_store_create", pointer, [C.c_char_p, C.POINTER(pointer)]),
        ("indexstore_unit_reader_create", pointer, [pointer, C.c_char_p, C.POINTER(pointer)]),
        ("indexstore_unit_reader_get_main_file", StringRef, [pointer]),
        ("indexstore_unit_reader_is_system_unit", C.c_bool, [pointer]),
        ("indexstore_unit_dependency_get_kind", C.c_int, [pointer]),
        ("indexstore_unit_dependency_get_name", StringRef, [pointer]),
        ("indexstore_unit_dependency_get_filepath", StringRef, [pointer]),
        ("indexstore_record_reader_create", pointer, [pointer, C.c_char_p, C.POINTER(pointer)]),
        ("indexstore_occurrence_get_symbol", pointer, [pointer]),
        ("indexstore_occurrence_get_roles", C.c_uint64, [pointer]),
        ("indexstore_occurrence_get_line_col", None, [pointer, C.POINTER(C.c_uint), C.POINTER(C.c_uint)]),
        ("indexstore_symbol_get_usr", StringRef, [pointer]),
        ("indexstore_symbol_get_name", StringRef, [pointer]),
    ]:
        function = getattr(lib, name)
        function.restype = result
        function.argtypes = arguments
    unit_callback = C.CFUNCTYPE(C.c_bool, pointer, StringRef)
    item_callback = C.CFUNCTYPE(C.c_bool, pointer, pointer)
    lib.indexstore_store_units_apply_f.argtypes = [pointer, C.c_uint, pointer, unit_callback]
    lib.indexstore_unit_reader_dependencies_apply_f.argtypes = [pointer, pointer, item_callback]
    lib.indexstore_record_reader_occurrences_apply_f.argtypes = [pointer, pointer, item_callback]

    error = pointer()
    store = lib.indexstore_store_create(store_path.encode(), C.byref(error))
    if not store:
        sys.exit(f"check-availability: cannot open the index store at {store_path}")
    units = []
    lib.indexstore_store_units_apply_f(store, 0, None, unit_callback(lambda _, name: units.append(text(name)) or True))
    records = {}
    build = os.path.join(root, ".build") + os.sep
    for unit in units:
        reader = lib.indexstore_unit_reader_create(store, unit.encode(), C.byref(error))
        if not reader or lib.indexstore_unit_reader_is_system_unit(reader):
            continue
        main = text(lib.indexstore_unit_reader_get_main_file(reader))
        if not main.startswith(root + os.sep) or main.startswith(build):
            continue

        def dependency(_, item, main=main):
            if lib.indexstore_unit_dependency_get_kind(item) == 2:  # a record
                records[text(lib.indexstore_unit_dependency_get_name(item))] = (
                    text(lib.indexstore_unit_dependency_get_filepath(item)) or main)
            return True

        lib.indexstore_unit_reader_dependencies_apply_f(reader, None, item_callback(dependency))
    found = set()
    for record, path in records.items():
        reader = lib.indexstore_record_reader_create(store, record.encode(), C.byref(error))
        if not reader:
            continue

        def occurrence(_, item, path=path):
            if lib.indexstore_occurrence_get_roles(item) & 4:  # INDEXSTORE_SYMBOL_ROLE_REFERENCE
                symbol = lib.indexstore_occurrence_get_symbol(item)
                line, column = C.c_uint(), C.c_uint()
                lib.indexstore_occurrence_get_line_col(item, C.byref(line), C.byref(column))
                found.add((text(lib.indexstore_symbol_get_usr(symbol)), text(lib.indexstore_symbol_get_name(symbol)),
                           f"{os.path.relpath(path, root)}:{line.value}"))
            return True

        lib.indexstore_record_reader_occurrences_apply_f(reader, None, item_callback(occurrence))
    return found


def main(arguments):
    root = os.getcwd()
    info = json.loads(subprocess.check_output(["swift", "-print-target-info"], text=True))
    triple = info["target"]["triple"]
    toolchain_lib = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("swift")))), "lib")
    library = next((p for p in (os.path.join(toolchain_lib, n) for n in ("libIndexStore.so", "libIndexStore.dylib"))
                    if os.path.exists(p)), None)
    if library is None:
        sys.exit(f"check-availability: no libIndexStore in {toolchain_lib}")
    bin_path = subprocess.check_output(["swift", "build", "--show-bin-path"], text=True).strip()
    store = os.path.join(bin_path, "index", "store")
    if not os.path.isdir(store):
        sys.exit(f"check-availability: no index store at {store}; run `swift build` first")

    floor = minimums()
    for override in (a.split("=", 1)[1] if a.startswith("--floor=") else a for a in arguments if a != "--floor"):
        platform, _, value = override.partition("=")
        floor[platform] = version(value)
    with tempfile.TemporaryDirectory() as work:
        table = availability(triple, info["paths"]["runtimeLibraryImportPaths"][0], work)
    uses = {}
    for usr, name, place in references(library, store, root):
        if usr not in table:
            continue
        title, introduced, deprecated = table[usr]
        newer = {p: v for p, v in introduced.items() if p in floor and v[:len(floor[p])] > floor[p]}
        if newer:
            uses.setdefault((title, "needs", tuple(sorted(newer.items()))), []).append(place)
        old = {p: v for p, v in deprecated.items() if p in floor and v[:len(floor[p])] <= floor[p]}
        if old and place.startswith("Sources" + os.sep):
            uses.setdefault((title, "deprecated", tuple(sorted(old.items()))), []).append(place)
    for (title, kind, versions), places in sorted(uses.items()):
        listed = ", ".join(f"{p} {v[0]}.{v[1]}" for p, v in versions)
        message = (f"`{title}` needs {listed}, newer than Package.swift's platforms" if kind == "needs" else
                   f"`{title}` is deprecated since {listed}: a warning, so an error, on Apple platforms")
        for place in sorted(places):
            print(f"{place}: error: {message}", file=sys.stderr)
    if not uses:
        print(f"check-availability: {len(table)} declarations with Apple availability; none used is newer than "
              + ", ".join(f"{p} {'.'.join(map(str, v))}" for p, v in sorted(floor.items()))
              + ", none used in Sources/ deprecated by then")
    return 1 if uses else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
