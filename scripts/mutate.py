#!/usr/bin/env python3
"""The mutation runner: plants one small bug at a time and says whether the
tests notice (make mutate; docs/testing.md, "Mutation testing").

A mutation in tests/mutations/*.txt is a name, a code snippet and its
replacement:

    # why a tired developer would write this, and what should notice
    == fast-line-ties-go-right
    - int left = vals[lo] >= vals[hi - 1]; /* ties go left */
    + int left = vals[lo] > vals[hi - 1]; /* ties go left */

("- " and "+ " lines, several of each for a snippet of several lines; a line
"! equivalent: WHY" marks a mutant that no test can kill, with the reason).
The snippet is looked for in src/, include/ and schema/, so that code moved
to another file is still found; one that is not found, or found more than
once, is reported as broken and fails the run.

Each mutation is applied in a scratch copy of the tree, which is built, and
the test programs run, --jobs at a time, each with a timeout: first those
that killed earlier mutants of the same file, then those of the mutated
layer (test_core_* for src/core), then the others, fastest first; the first
failure kills the mutant and stops the rest.  Test programs of a layer
below the mutated one (test_core_* for src/store) are not run: they do not
link the mutated code.  tests/build.sh (the build's own promises) is not
run.  The run fails when a mutation is broken or fewer
than TARGET per cent are killed.

    python3 scripts/mutate.py [--check] [--jobs N] [--keep] [NAME...]
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SEARCHED = ("src", "include", "schema")
TARGET = 95.0  # per cent of mutants killed


class Mutation:
    def __init__(self, name, where):
        self.name, self.where = name, where
        self.snippet, self.replacement, self.equivalent = [], [], None


def read_mutations(folder):
    """Every mutation of folder/*.txt, in file order; exits on a bad line."""
    mutations = []
    for file in sorted(f for f in os.listdir(folder) if f.endswith(".txt")):
        path = os.path.join("tests", "mutations", file)
        current = None
        with open(os.path.join(folder, file), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                line = line.rstrip("\n")
                where = f"{path}:{number}"
                if line.startswith("== "):
                    current = Mutation(line[3:].strip(), where)
                    mutations.append(current)
                elif line.startswith(("- ", "+ ")) or line in ("-", "+"):
                    if not current:
                        sys.exit(f"{where}: a snippet line before any '== NAME'")
                    (current.snippet if line[0] == "-" else current.replacement).append(line[2:])
                elif line.startswith("! equivalent:") and current:
                    current.equivalent = line[len("! equivalent:"):].strip()
                elif line.strip() and not line.startswith("#"):
                    sys.exit(f"{where}: expected '== NAME', '- ', '+ ', '! equivalent:' or '#'")
    names = set()
    for m in mutations:
        if m.name in names:
            sys.exit(f"{m.where}: a second mutation named {m.name}")
        names.add(m.name)
        if not m.snippet or m.snippet == m.replacement:
            sys.exit(f"{m.where}: {m.name} has no snippet, or replaces it by itself")
    return mutations


def read_sources(root):
    """The text of every file the snippets are looked for in, by path."""
    texts = {}
    for top in SEARCHED:
        for folder, _, files in os.walk(os.path.join(root, top)):
            for file in files:
                path = os.path.join(folder, file)
                with open(path, encoding="utf-8", errors="surrogateescape") as f:
                    texts[os.path.relpath(path, root)] = f.read()
    return texts


def locate(mutation, texts):
    """(path, None) where the snippet occurs once, else (None, what is wrong)."""
    snippet = "\n".join(mutation.snippet)
    found = sorted((path, text.count(snippet)) for path, text in texts.items() if snippet in text)
    count = sum(c for _, c in found)
    if count == 1:
        return found[0][0], None
    if count == 0:
        return None, "snippet not found"
    return None, f"snippet found {count} times ({', '.join(p for p, _ in found)})"


def layer_of(path):
    """The layer of docs/design.md a file belongs to (the schema is the store's)."""
    parts = path.split(os.sep)
    return {"include": "core", "schema": "store"}.get(parts[0]) or parts[1]


def read_layers():
    """scripts/layers.txt: each layer's rank, the bottom one 0; siblings share
    one.  cli and ext are on top, and the test programs of both run the
    coinrow program."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "layers.txt"), encoding="utf-8") as f:
        rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
    return {layer: rank for rank, row in enumerate(rows) for layer in row}


LAYERS = read_layers()


def reaches(test, layer):
    """Whether test_LAYER_* can run code of layer: only its own layer's and
    those below are linked in (or run, for cli and ext).  A test named for no
    layer (test_subsystems_nomem) may run any."""
    return LAYERS.get(test.split("_")[1], len(LAYERS)) >= LAYERS[layer]


def start(cmd, cwd, quiet=False):
    """cmd started in its own process group, so that it can be killed whole."""
    return subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL if quiet else subprocess.PIPE,
                            stderr=subprocess.DEVNULL if quiet else subprocess.STDOUT,
                            env=dict(os.environ, CR_BIN="build/coinrow"), start_new_session=True)


def kill(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    p.wait()


def run(cmd, cwd, timeout=None):
    """Runs cmd (killed whole on timeout): its exit status, or None on
    timeout, and its output."""
    with start(cmd, cwd) as p:
        try:
            out, _ = p.communicate(timeout=timeout)
            return p.returncode, out.decode(errors="replace")
        except subprocess.TimeoutExpired:
            kill(p)
            return None, ""


class Scratch:
    """A copy of the tree (uncommitted files included, build/ not), built,
    with its test programs timed on the unmutated code."""

    def __init__(self, root, jobs):
        self.dir = tempfile.mkdtemp(prefix="coinrow-mutate.")
        self.jobs = jobs
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                                check=True, stdout=subprocess.PIPE).stdout.decode().split("\0")
        for path in filter(None, listed):
            if os.path.isfile(os.path.join(root, path)):
                os.makedirs(os.path.join(self.dir, os.path.dirname(path)), exist_ok=True)
                shutil.copy2(os.path.join(root, path), os.path.join(self.dir, path))
        self.texts = read_sources(self.dir)
        self.killers = {}  # by source file: the tests that killed its mutants, latest first
        self.tests = sorted(f[:-2] for f in os.listdir(os.path.join(self.dir, "tests"))
                            if f.startswith("test_") and f.endswith(".c"))

    def build(self, tests):
        status, out = run(["make", "-s", f"-j{self.jobs}", "build/coinrow"] + [f"build/tests/{t}" for t in tests],
                          self.dir)
        return status == 0, out

    def time_tests(self):
        """Builds and runs every test program once; exits when one fails."""
        ok, out = self.build(self.tests)
        if not ok:
            sys.exit(f"mutate: the unmutated tree does not build:\n{out}")
        seconds = {}
        for t in self.tests:
            begun = time.monotonic()
            status, out = run([f"build/tests/{t}"], self.dir, 600)
            if status != 0:
                sys.exit(f"mutate: {t} fails on the unmutated tree:\n{out}")
            seconds[t] = time.monotonic() - begun
        self.timeouts = {t: 10 + 5 * s for t, s in seconds.items()}
        self.by_speed = sorted(self.tests, key=seconds.get)

    def first_failure(self, tests, jobs):
        """The first of tests to fail (or time out), run jobs at a time in
        order, or None; the others still running are stopped."""
        waiting, running, failed = list(tests), {}, None
        try:
            while failed is None and (waiting or running):
                while waiting and len(running) < jobs:
                    t = waiting.pop(0)
                    running[t] = (start([f"build/tests/{t}"], self.dir, quiet=True), time.monotonic())
                time.sleep(0.05)
                for t, (p, begun) in list(running.items()):
                    if p.poll() is None and time.monotonic() - begun < self.timeouts[t]:
                        continue
                    if p.returncode is None:
                        kill(p)
                        failed = f"{t} (timeout)"
                    elif p.returncode != 0:
                        failed = t
                    del running[t]
                    if failed:
                        break
        finally:
            for p, _ in running.values():
                kill(p)
        return failed

    def try_mutation(self, path, snippet, replacement):
        """Builds and tests the tree with the snippet of path replaced: the
        test that failed, None when none did, or (None, make's output) when it
        does not build."""
        original = self.texts[path]
        file = os.path.join(self.dir, path)
        with open(file, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(original.replace(snippet, replacement))
        try:
            layer = layer_of(path)
            killers = self.killers.setdefault(path, [])
            first = killers + [t for t in self.by_speed if f"_{layer}_" in f"{t}_" and t not in killers]
            for stage in (first, [t for t in self.by_speed if t not in first and reaches(t, layer)]):
                ok, out = self.build(stage)
                if not ok:
                    return None, out
                killer = self.first_failure(stage, self.jobs)
                if killer and self.jobs > 1 and self.first_failure([killer.split(" ")[0]], 1) is None:
                    # it failed beside another test, but passes alone: a
                    # loaded machine's doing, so the stage is run one by one
                    killer = self.first_failure(stage, 1)
                if killer:
                    name = killer.split(" ")[0]
                    killers[:] = [name] + [t for t in killers if t != name]
                    return killer, None
            return None, None
        finally:
            with open(file, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(original)


def check_only(mutations, root):
    """--check: every snippet looked for, nothing built."""
    texts = read_sources(root)
    layers, broken = {}, 0
    for m in mutations:
        path, problem = locate(m, texts)
        if problem:
            broken += 1
            print(f"BROKEN    {m.name}: {problem} ({m.where})")
        else:
            layers[layer_of(path)] = layers.get(layer_of(path), 0) + 1
    print(f"{len(mutations)} mutations: " + ", ".join(f"{layers[l]} {l}" for l in sorted(layers)) +
          (f", {broken} broken" if broken else ""))
    return 1 if broken else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only look for every snippet (a second, no build)")
    parser.add_argument("--jobs", type=int, default=2, help="make's -j and test programs at a time (default 2)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch copy and say where it is")
    parser.add_argument("names", nargs="*", help="only these mutations")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    started = time.monotonic()

    mutations = read_mutations(os.path.join(root, "tests", "mutations"))
    unknown = set(args.names) - {m.name for m in mutations}
    if unknown:
        sys.exit(f"no mutation named {', '.join(sorted(unknown))}")
    if args.names:
        mutations = [m for m in mutations if m.name in args.names]
    if args.check:
        return check_only(mutations, root)

    counts = {"killed": 0, "survived": 0, "equivalent": 0, "broken": 0}
    survivors = []
    scratch = Scratch(root, args.jobs)
    try:
        print(f"mutate: {len(mutations)} mutations; building the tree and timing its {len(scratch.tests)} test "
              "programs", flush=True)
        scratch.time_tests()
        for m in mutations:
            path, problem = locate(m, scratch.texts)
            if problem:
                counts["broken"] += 1
                print(f"BROKEN    {'':5} {m.name}: {problem} ({m.where})", flush=True)
                continue
            layer, begun = layer_of(path), time.monotonic()
            killer, build_output = scratch.try_mutation(path, "\n".join(m.snippet), "\n".join(m.replacement))
            if build_output is not None:
                counts["broken"] += 1
                print(f"BROKEN    {layer:5} {m.name}: does not build ({m.where})\n{build_output}", flush=True)
            elif killer:
                counts["killed"] += 1
                print(f"killed    {layer:5} {m.name}: by {killer} ({time.monotonic() - begun:.0f} s)", flush=True)
            elif m.equivalent:
                counts["equivalent"] += 1
                print(f"survived  {layer:5} {m.name}: equivalent, {m.equivalent}", flush=True)
            else:
                counts["survived"] += 1
                survivors.append(m)
                print(f"SURVIVED  {layer:5} {m.name} ({path}; {m.where})", flush=True)
    finally:
        if args.keep:
            print(f"mutate: the scratch copy is {scratch.dir}")
        else:
            shutil.rmtree(scratch.dir, ignore_errors=True)

    tried = counts["killed"] + counts["survived"] + counts["equivalent"]
    score = 100.0 * counts["killed"] / tried if tried else 0.0
    minutes, seconds = divmod(int(time.monotonic() - started), 60)
    print(f"\nmutation score: {counts['killed']} of {tried} killed ({score:.1f}%, target {TARGET:.0f}%); "
          f"{counts['equivalent']} equivalent, {counts['survived']} survived, {counts['broken']} broken; "
          f"{minutes} min {seconds} s")
    for m in survivors:
        print(f"  survived: {m.name} ({m.where})")
    return 1 if counts["broken"] or (not args.names and score < TARGET) else 0


if __name__ == "__main__":
    sys.exit(main())
