"""The package's surface against the CLI's answers for the same image
(info, roots, check, diff: the contract's JSON) and against itself
(translate_many over every kind of input, threads, ptov, iterators)."""
import array
import json
import os
import re
import subprocess
import threading
import time
import unittest

import pgwalk
from common import REPO, SAMPLE, DUMPS, shared_dump, gva2gpa, markers

PGWALK = os.environ.get("PGWALK", os.path.join(REPO, "build", "pgwalk"))


def cli(*args):
    """pgwalk ARGS --format=json: its records, hex strings as ints."""
    p = subprocess.run([PGWALK] + list(args)
                       + ["--format=json"], capture_output=True, text=True)
    return [json.loads(l, object_hook=_ints) for l in p.stdout.splitlines()]


def _ints(obj):
    return {k: _int(v) for k, v in obj.items()}


def _int(v):
    if isinstance(v, str) and re.fullmatch(r"0x[0-9a-f]+", v):
        return int(v, 16)
    if isinstance(v, list):
        return [_int(x) for x in v]
    return v


class Surface(unittest.TestCase):
    def test_version(self):
        with open(os.path.join(REPO, "VERSION")) as f:
            self.assertEqual(pgwalk.__version__, f.read().strip())

    def info_agrees(self, path, image_format=None):
        """info() is `pgwalk info --format=json`'s object, key for key
        (both read back alike: "0x..." strings as ints)."""
        args = ["--image-format=" + image_format] if image_format else []
        want = cli("info", *args, path)[0]
        self.assertEqual(want.pop("type"), "info")
        with pgwalk.open(path, image_format=image_format) as im:
            got = json.loads(json.dumps(im.info()), object_hook=_ints)
        self.assertEqual(sorted(got), sorted(want), path)
        for key in want:
            self.assertEqual((key, got[key]), (key, want[key]), path)
        return want

    def test_info_is_the_cli_info(self):
        for name, _ in DUMPS:
            self.info_agrees(os.path.join(REPO, "testdata", name + ".elf"))

    def test_info_on_every_real_dump(self):
        # Every file of every dump: the ELF, the raw memory, the kdumps and
        # the flattened one (the filtered kdump's pages by reason, QEMU's
        # i386 kdump, arm64's notes without CPU registers).
        seen = []
        for name in ("x64-4l-a", "x64-5l-a", "i386-2l-a", "i386-pae-a",
                     "arm64-4k-a", "arm64-16k-a"):
            elf, folder = shared_dump(name)
            files = [(elf, None),
                     (os.path.join(os.path.dirname(elf), "mem.raw"), "raw")]
            files += [(os.path.join(folder, f), None) for f in
                      ("vmcore-d31.kdump", "vmcore-d31-zlib.flat",
                       "vmcore.kdump-zlib")
                      if os.path.exists(os.path.join(folder, f))]
            for path, fmt in files:
                with self.subTest(path=path):
                    want = self.info_agrees(path, fmt)
                    seen.append((want["format"],
                                 (want["vmcoreinfo"] or {}).get("source")))
        # 6 ELFs and raw images, 2 makedumpfile kdumps (one flattened),
        # QEMU's 2 i386 kdumps; the raw images' VMCOREINFO found in memory
        self.assertEqual(len(seen), 16, seen)
        self.assertEqual(sorted(set(seen)), [("elf", "note"), ("kdump", "note"),
                                             ("raw", "memory")])

    def test_translation_levels(self):
        with pgwalk.open(SAMPLE) as im:
            sp = im.space(cpu=1)
            (pid, va), (kind, pa, text) = next(
                (k, v) for k, v in markers(os.path.join(REPO, "testdata", "x64-4l-a")).items()
                if v[0] == "anon4k" and v[1])
            t = sp.translate(va)
            self.assertEqual((t.mapped, t.stop, t.pa, t.page_size, t.level),
                             (True, "ok", pa, 4096, "pte"))
            self.assertEqual([l.name for l in t.levels], ["pgd", "pud", "pmd", "pte"])
            self.assertEqual(t.levels[0].table, sp.root)
            self.assertEqual([l.kind for l in t.levels], ["table"] * 3 + ["leaf"])
            self.assertEqual(t.levels[3].raw & 0xffffffffff000, pa)
            self.assertIn("user", t.flags)

    def test_translate_many_inputs(self):
        answers = gva2gpa(os.path.join(REPO, "testdata", "x64-4l-a"))[1]
        vas = [va for va, _ in answers]
        with pgwalk.open(SAMPLE) as im:
            sp = im.space(cpu=1)
            want = [sp.translate(va) for va in vas]
            buf = array.array("Q", vas).tobytes()
            for kind, given in (("list", vas), ("tuple", tuple(vas)),
                                ("array", array.array("Q", vas)),
                                ("memoryview", memoryview(buf).cast("Q")),
                                ("generator", list(v for v in vas))):
                got = sp.translate_many(given)
                self.assertIsInstance(got.pa, array.array, kind)
                self.assertEqual(list(got.pa), [t.pa or 0 for t in want], kind)
                self.assertEqual([pgwalk.STOPS[s] for s in got.stop],
                                 [t.stop for t in want], kind)
                self.assertEqual([pgwalk.ABSENCES[a] if a else None for a in got.absence],
                                 [t.data_absence or t.table_absence for t in want], kind)
            self.assertEqual(len(sp.translate_many([]).pa), 0)
            with self.assertRaises(OverflowError):
                sp.translate_many([-1])

    def test_translate_many_numpy(self):
        try:
            import numpy as np
        except ImportError:
            self.skipTest("numpy is not installed (python3-numpy): the "
                          "array.array path is tested without it")
        vas = [va for va, _ in gva2gpa(os.path.join(REPO, "testdata", "x64-4l-a"))[1]]
        with pgwalk.open(SAMPLE) as im:
            sp = im.space(cpu=1)
            got = sp.translate_many(np.array(vas, dtype=np.uint64))
            self.assertIsInstance(got.pa, np.ndarray)
            self.assertEqual(got.pa.dtype, np.uint64)
            self.assertEqual(got.pa.tolist(), list(sp.translate_many(vas).pa))

    def test_threads_take_turns(self):
        vas = [va for va, _ in gva2gpa(os.path.join(REPO, "testdata", "x64-4l-a"))[0]] * 50
        with pgwalk.open(SAMPLE) as im:
            spaces = [im.space(cpu=0), im.kernel()]
            want = [list(s.translate_many(vas).pa) for s in spaces]
            got = [None] * 8

            def work(i):
                got[i] = list(spaces[i % 2].translate_many(vas).pa)
            ts = [threading.Thread(target=work, args=(i,)) for i in range(8)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            self.assertEqual(got, [want[i % 2] for i in range(8)])

    def test_ptov_finds_the_marker(self):
        folder = os.path.join(REPO, "testdata", "x64-4l-a")
        with pgwalk.open(SAMPLE) as im:
            sp = im.space(cpu=1)
            rm = im.rmap([sp])
            n = 0
            for (pid, va), (kind, pa, text) in markers(folder).items():
                if pa is None or kind.startswith("protnone"):
                    continue
                hits = {(h.va, h.space) for h in rm.lookup(pa)}
                self.assertIn((va, sp), hits)
                n += 1
            self.assertEqual(n, len([1 for v in markers(folder).values()
                                     if v[1] is not None and not v[0].startswith("protnone")]))
            self.assertEqual(list(im.ptov(1 << 40)), [])


class AgainstTheCli(unittest.TestCase):
    """roots, check and diff records of the real dumps as the CLI's."""

    def test_roots(self):
        for name, _ in DUMPS:
            elf, _ = shared_dump(name)
            want = [(r["root"], r["kind"], r["user_bytes"])
                    for r in cli("roots", elf) if r["type"] == "root"]
            with pgwalk.open(elf) as im:
                got = [(r.table, r.kind, r.user_bytes) for r in im.roots()]
            self.assertEqual(got, want, name)
            self.assertGreater(len(want), 5, name)

    def test_check(self):
        for name, _ in DUMPS:
            elf, _ = shared_dump(name)
            want = [(f["rule"], f["severity"]) for f in
                    cli("check", "--severity=info", elf) if f["type"] == "finding"]
            with pgwalk.open(elf) as im:
                got = [(f.rule, f.severity) for f in im.check()]
            self.assertEqual(got, want, name)

    def test_check_all_roots(self):
        # check(all_roots=True) is `check --all-roots`'s findings, in its
        # order, field for field (the owner's pid and comm too), on every
        # x86 dump and the filtered kdump; and with a budget that cuts it,
        # the same findings, then LimitReached.  crash's process roots
        # are never orphans.
        _, folder = shared_dump("x64-4l-a")
        paths = [shared_dump(n)[0] for n, _ in DUMPS]
        paths.append(os.path.join(folder, "vmcore-d31.kdump"))
        for path, budget in [(p, 0) for p in paths] + [(paths[0], 20000)]:
            args = ["--max-entries=%d" % budget] if budget else []
            want = [(f["rule"], f["severity"], f["va"], f["end"], f["root"],
                     f["pid"], f["comm"], len(f["evidence"]), f["why"])
                    for f in cli("check", "--all-roots", "--severity=info",
                                 *args, path) if f["type"] == "finding"]
            got = []
            with pgwalk.open(path) as im:
                try:
                    for f in im.check(all_roots=True, max_entries=budget):
                        got.append((f.rule, f.severity, f.va, f.end, f.root,
                                    f.pid, None if f.comm is None else
                                    f.comm.decode("latin-1"),
                                    len(f.evidence), f.why))
                    cut = False
                except pgwalk.LimitReached:
                    cut = True
            self.assertEqual(got, want, path)
            self.assertEqual(cut, bool(budget), path)
            self.assertTrue(want, path)
        with open(os.path.join(folder, "process-roots.txt")) as f:
            crash = {int(dict(w.split("=", 1) for w in l.split())["pgd_phys"], 16)
                     for l in f if l.startswith("pid=")}
        with pgwalk.open(paths[0]) as im:
            orphans = {f.root for f in im.check(all_roots=True)
                       if f.rule == "orphan-root"}
            self.assertTrue(orphans)
            self.assertEqual(orphans & crash, set())
            with self.assertRaises(pgwalk.InvalidArgument):
                im.check(im.kernel(), all_roots=True)
        with pgwalk.open(shared_dump("arm64-4k-a")[0]) as im:
            with self.assertRaises(pgwalk.Unsupported):
                im.check(all_roots=True)

    def test_diff(self):
        elf, folder = shared_dump("x64-4l-a")
        want = [(r["type"], r["va"], r["end"], r.get("changes", []))
                for r in cli("diff", "--pid=125", "--pid=129", elf)
                if r["type"] != "summary"]
        with pgwalk.open(elf) as im:
            a, b = im.space(pid=125), im.space(pid=129)
            got = [(r.kind, r.va, r.end, sorted(r.changes, key=pgwalk._keys.DIFF_CHANGES.index))
                   for r in im.diff(a, b)]
        self.assertEqual(got, want)
        self.assertEqual(len(want), 80)


class Stub(unittest.TestCase):
    def test_stub_declares_the_public_names(self):
        import ast
        path = os.path.join(os.path.dirname(pgwalk.__file__), "__init__.pyi")
        with open(path) as f:
            tree = ast.parse(f.read())
        declared = {n.name for n in tree.body
                    if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
        declared |= {t.id for n in tree.body if isinstance(n, ast.AnnAssign)
                     for t in [n.target]}
        self.assertEqual(set(pgwalk.__all__) - declared, set())
        for cls in ("Image", "Space", "ReverseMap"):
            stub = next(n for n in tree.body
                        if isinstance(n, ast.ClassDef) and n.name == cls)
            methods = {n.name for n in stub.body if isinstance(n, ast.FunctionDef)}
            public = {m for m in vars(getattr(pgwalk, cls))
                      if not m.startswith("_") and callable(getattr(getattr(pgwalk, cls), m))}
            self.assertEqual(public - methods, set(), cls)


def counts_during(call):
    """How often this thread counted while call() ran in another: more
    than a few only when the call gave up the GIL (no switch interval
    preempts C code that holds it).  Up to five tries, for a machine too
    busy to schedule this thread during one call."""
    for _ in range(5):
        span = []

        def timed():
            span.append(time.perf_counter())
            call()
            span.append(time.perf_counter())
        t = threading.Thread(target=timed)
        ticks = []
        t.start()
        while t.is_alive():
            ticks.append(time.perf_counter())
        t.join()
        during = sum(1 for x in ticks if span[0] < x < span[1])
        if during > 100:
            break
    return during


class Gil(unittest.TestCase):
    def test_other_threads_run_during_a_batch(self):
        vas = array.array("Q", range(0, 1 << 34, 4096))   # 4 Mi addresses
        with pgwalk.open(SAMPLE) as im:
            sp = im.space(cpu=1)
            self.assertGreater(counts_during(lambda: sp.translate_many(vas)),
                               100)

    def test_other_threads_run_during_a_search(self):
        # One next() of a search that finds nothing searches all of the
        # real dump's 128 MiB (the walk in the library's thread, the
        # caller waiting in C).
        elf, _ = shared_dump("x64-4l-a")
        found = []
        with pgwalk.open(elf) as im:
            self.assertGreater(counts_during(lambda: found.extend(im.search(
                string="no such bytes in this image", phys=True))), 100)
        self.assertEqual(found, [])

    def test_search_iterators_in_threads(self):
        # Four threads, each with its own search of one image, their
        # next() calls interleaved (each takes the image's lock; the walks
        # run only inside them): each gets what it gets alone.
        with pgwalk.open(SAMPLE) as im:
            kws = [dict(string="PGWALK"), dict(hex="00 ?? 00 01", phys=True),
                   dict(regex="PGW[A-Z]+", space=im.space(cpu=1)),
                   dict(string="PGW", phys=True, context=64)]
            want = [list(im.search(**kw)) for kw in kws]
            self.assertTrue(all(want))
            got = [None] * 4

            def work(i):
                got[i] = list(im.search(**kws[i]))
            ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            self.assertEqual(got, want)
