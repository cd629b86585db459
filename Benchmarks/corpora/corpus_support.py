"""Shared pieces of the corpus build scripts (stdlib only).

Two concerns live here because the Debian-based build scripts need them and nothing
else does:

* a private APT state: package lists fetched into a directory of our own, and .debs
  downloaded and unpacked into a temporary one, so a build never needs
  `apt-get install` and never touches the system's lists or caches;
* the output format: JSON Lines, gzip'd with a zero mtime so that the same inputs
  give a byte-identical file.
"""
import glob
import gzip
import json
import lzma
import os
import subprocess
import sys

# The Debian index a corpus is built from; other suites (updates, security) only
# matter for downloading the newest .debs.
BOOKWORM_PACKAGES = "*_debian_dists_bookworm_main_binary-amd64_Packages*"
BOOKWORM_TRANSLATION = "*_debian_dists_bookworm_main_i18n_Translation-en*"


def apt_options(lists_dir):
    """apt-get/apt-cache options that read and write only `lists_dir`.

    Empty `pkgcache`/`srcpkgcache` keep apt from rewriting the system's binary cache
    from our lists. As root, apt would otherwise drop to the `_apt` user, which cannot
    write into a private temporary directory, and only warn about it.
    """
    opts = ["-o", "Dir::State::Lists=" + lists_dir,
            "-o", "Dir::Cache::pkgcache=", "-o", "Dir::Cache::srcpkgcache="]
    if os.geteuid() == 0:
        opts += ["-o", "APT::Sandbox::User=root"]
    return opts


def ensure_lists(lists_dir):
    """Fill `lists_dir` with uncompressed Packages + Translation-en, unless it has them.

    Runs, with the machine's configured sources:
        apt-get update -o Dir::State::Lists=DIR -o Acquire::Languages=en \\
            -o Acquire::GzipIndexes=false
    Debian images often set `Acquire::Languages "none"`, which skips the long
    descriptions; `GzipIndexes=false` stores the indexes uncompressed.
    """
    if glob.glob(os.path.join(lists_dir, BOOKWORM_PACKAGES)):
        return
    os.makedirs(os.path.join(lists_dir, "partial"), exist_ok=True)
    print("apt-get update into %s" % lists_dir, file=sys.stderr)
    cmd = (["apt-get", "update", "-qq"] + apt_options(lists_dir)
           + ["-o", "Acquire::Languages=en", "-o", "Acquire::GzipIndexes=false"])
    subprocess.run(cmd, check=True)
    if not glob.glob(os.path.join(lists_dir, BOOKWORM_PACKAGES)):
        sys.exit("apt-get update gave no bookworm main Packages in %s; "
                 "are Debian bookworm sources configured?" % lists_dir)


def installed_versions(fixture_versions):
    """Installed version of each package of `fixture_versions`, or None when one is missing."""
    versions = {}
    for package in fixture_versions:
        result = subprocess.run(["dpkg-query", "-W", "-f=${Status}\t${Version}", package],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        status, _, version = result.stdout.partition("\t")
        if result.returncode != 0 or not status.endswith(" installed"):
            return None
        versions[package] = version
    return versions


def download_and_unpack(work_dir, lists_dir, fixture_versions):
    """Fetch the .debs of `fixture_versions` ({package: version}; the newest, with a warning, when the archive no
    longer has that version) and unpack them under work_dir/root; return (root, {package: version})."""
    ensure_lists(lists_dir)
    opts = apt_options(lists_dir)
    wanted = []
    for package, version in fixture_versions.items():
        pinned = "%s=%s" % (package, version)
        known = subprocess.run(["apt-cache"] + opts + ["show", pinned],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if known.returncode == 0:
            wanted.append(pinned)
        else:
            print("warning: %s is gone from the archive; taking the newest %s"
                  % (pinned, package), file=sys.stderr)
            wanted.append(package)
    debs = os.path.join(work_dir, "debs")
    os.makedirs(debs)
    subprocess.run(["apt-get", "download", "-qq"] + opts + wanted, cwd=debs, check=True)
    root = os.path.join(work_dir, "root")
    versions = {}
    for name in sorted(os.listdir(debs)):
        deb = os.path.join(debs, name)
        fields = subprocess.run(["dpkg-deb", "-f", deb, "Package", "Version"], check=True,
                                stdout=subprocess.PIPE, text=True).stdout
        meta = dict(line.split(": ", 1) for line in fields.splitlines())
        versions[meta["Package"]] = meta["Version"]
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
    return root, versions


def add_source_arguments(parser, root_hint):
    """The --from, --root and --apt-lists options of a builder that reads Debian packages."""
    parser.add_argument("--from", dest="origin", choices=["auto", "download", "installed"],
                        default="auto", help="auto: installed packages if all of them are, else download")
    parser.add_argument("--root", help="read an unpacked tree (%s) instead" % root_hint)
    parser.add_argument("--apt-lists", default=None,
                        help="private APT lists directory for downloads (default: a temporary one)")


def package_root(args, work_dir, fixture_versions):
    """The tree to read the packages from, as the options of `add_source_arguments` ask: --root, the installed
    packages ("/"), or the fixture's versions downloaded and unpacked under work_dir. Prints the versions read."""
    if args.root:
        return args.root
    versions = installed_versions(fixture_versions) if args.origin != "download" else None
    if versions is not None:
        root = "/"
    elif args.origin == "installed":
        sys.exit("not all of %s are installed (see --help)" % ", ".join(fixture_versions))
    else:
        lists_dir = args.apt_lists or os.path.join(work_dir, "lists")
        root, versions = download_and_unpack(work_dir, lists_dir, fixture_versions)
    for package, version in sorted(versions.items()):
        note = "" if fixture_versions.get(package) == version else "  (fixture has %s)" % fixture_versions.get(package)
        print("%-15s %s%s" % (package, version, note), file=sys.stderr)
    return root


def find_list(lists_dir, pattern):
    """The one index file in `lists_dir` matching `pattern`, or exit with a message."""
    hits = sorted(glob.glob(os.path.join(lists_dir, pattern)))
    if not hits:
        sys.exit("no file matching %s in %s" % (pattern, lists_dir))
    return hits[0]


def read_index_text(path):
    """Decompressed UTF-8 text of an APT index file, whatever apt stored it as."""
    if path.endswith(".xz"):
        with lzma.open(path) as f:
            data = f.read()
    elif path.endswith(".gz"):
        with gzip.open(path) as f:
            data = f.read()
    elif path.endswith((".lz4", ".zst")):
        # No lz4/zstd in the stdlib; apt's helper reads anything apt wrote.
        data = subprocess.run(["/usr/lib/apt/apt-helper", "cat-file", path],
                              check=True, stdout=subprocess.PIPE).stdout
    else:
        with open(path, "rb") as f:
            data = f.read()
    return data.decode("utf-8")


def write_jsonl_gz(path, docs):
    """Write `docs` (an iterable of dicts) as gzip'd JSON Lines; return (count, raw bytes).

    Keys keep their insertion order, output is compact UTF-8, and the gzip header has
    no name and mtime 0, so equal inputs give equal bytes. The file appears atomically.
    Exits if two documents share an id.
    """
    seen = set()
    count = raw_bytes = 0
    tmp = path + ".tmp"
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            for doc in docs:
                if doc["id"] in seen:
                    os.unlink(tmp)
                    sys.exit("duplicate id %r" % doc["id"])
                seen.add(doc["id"])
                line = (json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
                gz.write(line)
                count += 1
                raw_bytes += len(line)
    os.replace(tmp, path)
    return count, raw_bytes
