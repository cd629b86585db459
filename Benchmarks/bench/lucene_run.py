"""Lucene 9.9.1 on the benchmark's corpus, schema and queries: the Java runner in Benchmarks/lucene/, in its own JVM.

The jar: PyPI's sdist of pyserini 1.6.0 carries anserini-1.7.1-fatjar.jar, which holds Lucene 9.9.1 and Jackson.
The first run downloads the sdist (about 165 MB) with pip into the cache (env LOUPE_BENCH_CACHE, default
~/.cache/loupe-bench), keeps only the jar (its sha256 checked) and deletes the rest; later runs reuse the jar. The
runner is compiled with the JDK at LOUPE_BENCH_JDK (default /usr/lib/jvm/temurin-25-jdk-amd64) into a folder of
the cache named by a hash of its sources and that JDK, so an edit recompiles it. Without Java or the jar the
engine fails with LuceneUnavailable, and compare.py runs the others.
"""
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

from .measure import class_summary

SOURCES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lucene")
PYSERINI_PIN = "pyserini==1.6.0"
JAR_PATH = "pyserini/resources/jars/anserini-1.7.1-fatjar.jar"  # inside the sdist's top folder
JAR_SHA256 = "183bf5b53c82441b249d475f66f73aaa3e7dedd8892dece747e3680a1fda34f3"
# Lucene's latencies drop ~15% from 3 to 10 JIT warm-up passes over a query list, ~3% more to 30.
WARMUP_PASSES = 10
# Lucene 9.9 unmaps its MappedByteBuffers through sun.misc.Unsafe, which JDK 24+ warns about at every start.
JVM_OPTIONS = ["--sun-misc-unsafe-memory-access=allow"]


class LuceneUnavailable(RuntimeError):
    """Java or the Lucene jar cannot be had; the message says what is missing."""


def cache_dir():
    """The cache folder (created): LOUPE_BENCH_CACHE or ~/.cache/loupe-bench."""
    path = os.environ.get("LOUPE_BENCH_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "loupe-bench")
    os.makedirs(path, exist_ok=True)
    return path


def jdk_tool(name):
    """bin/<name> of the benchmark's JDK."""
    jdk = os.environ.get("LOUPE_BENCH_JDK", "/usr/lib/jvm/temurin-25-jdk-amd64")
    path = os.path.join(jdk, "bin", name)
    if not os.access(path, os.X_OK):
        raise LuceneUnavailable(f"no {path}: Lucene runs on a JDK (Temurin 25 is expected there; set "
                                "LOUPE_BENCH_JDK to another JDK's folder)")
    return path


def sha256(path):
    """Hex sha256 of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def ensure_jar(cache):
    """The path of the Lucene fat jar in `cache`, downloading pyserini's sdist and extracting it the first time."""
    jar = os.path.join(cache, os.path.basename(JAR_PATH))
    if os.path.exists(jar):
        return jar
    print(f"lucene: fetching {PYSERINI_PIN} (sdist, ~165 MB) for {os.path.basename(JAR_PATH)}", file=sys.stderr)
    download = tempfile.mkdtemp(prefix="pyserini-", dir=cache)
    try:
        try:
            subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
                            "--no-deps", "--no-binary", ":all:", PYSERINI_PIN, "-d", download], check=True)
        except (OSError, subprocess.CalledProcessError) as e:
            raise LuceneUnavailable(f"pip download {PYSERINI_PIN} failed ({e}); Lucene's jar comes from its sdist")
        sdists = glob.glob(os.path.join(download, "pyserini-*.tar.gz"))
        if not sdists:
            raise LuceneUnavailable(f"pip download {PYSERINI_PIN} gave no sdist in {download}")
        part = jar + ".part"
        with tarfile.open(sdists[0]) as tar:
            member = next((m for m in tar if m.isfile() and m.name.endswith("/" + JAR_PATH)), None)
            if member is None:
                raise LuceneUnavailable(f"{os.path.basename(sdists[0])} holds no {JAR_PATH}")
            with tar.extractfile(member) as src, open(part, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
        if sha256(part) != JAR_SHA256:
            os.unlink(part)
            raise LuceneUnavailable(f"{JAR_PATH} in {PYSERINI_PIN} does not have the expected sha256 {JAR_SHA256}")
        os.replace(part, jar)
    finally:
        shutil.rmtree(download, ignore_errors=True)
    return jar


def ensure_runner(cache, jar):
    """The folder of the compiled runner for the current sources, compiling them when no such folder exists (and
    removing the folders of older sources)."""
    javac = jdk_tool("javac")
    sources = sorted(glob.glob(os.path.join(SOURCES, "*.java")))
    digest = hashlib.sha256(javac.encode())
    for path in sources:
        with open(path, "rb") as fh:
            digest.update(os.path.basename(path).encode() + b"\0" + fh.read() + b"\0")
    classes = os.path.join(cache, "lucene-runner-" + digest.hexdigest()[:16])
    if os.path.exists(os.path.join(classes, "LuceneBench.class")):
        return classes
    print(f"lucene: compiling {SOURCES}", file=sys.stderr)
    building = tempfile.mkdtemp(prefix="lucene-runner-build-", dir=cache)
    try:
        subprocess.run([javac, "-proc:none", "-Xlint:all", "-cp", jar, "-d", building, *sources], check=True)
        for old in glob.glob(os.path.join(cache, "lucene-runner-*")):
            if old != building:
                shutil.rmtree(old, ignore_errors=True)
        os.rename(building, classes)
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return classes


def run_lucene(job):
    """Runs the job (compare.py's worker job plus index_dir, warmup) in a JVM; returns the "lucene" engine record."""
    java = jdk_tool("java")
    cache = cache_dir()
    jar = ensure_jar(cache)
    classes = ensure_runner(cache, jar)
    job = dict(job, warmup=WARMUP_PASSES, index_dir=os.path.join(job["workdir"], "lucene"))
    job_path = os.path.join(job["workdir"], "lucene.job.json")
    result_path = os.path.join(job["workdir"], "lucene.json")
    with open(job_path, "w") as fh:
        json.dump(job, fh)
    subprocess.run([java, *JVM_OPTIONS, "-cp", f"{jar}{os.pathsep}{classes}", "LuceneBench", job_path, result_path],
                   check=True, stdout=sys.stderr)
    with open(result_path) as fh:
        result = json.load(fh)
    result["classes"] = class_summary(result["queries"])
    return result
