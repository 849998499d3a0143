"""image.search() against the guests' own marker pages (console.log: each
marker's va, the frame its pagemap gave and the text at it) and against
the CLI's `search --format=json` on every real dump and the samples: the
same hits, field for field, and the same summary."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import pgwalk
from common import REPO, SAMPLE, TOOLS, shared_dump, markers

PGWALK = os.environ.get("PGWALK", os.path.join(REPO, "build", "pgwalk"))
RULES = os.path.join(REPO, "tests", "rules")
REAL = ("x64-4l-a", "x64-5l-a", "i386-2l-a", "i386-pae-a", "arm64-4k-a",
        "arm64-16k-a")


def cli_search(path, *args):
    """pgwalk search ARGS --format=json PATH: (hits, summary, status)."""
    p = subprocess.run([PGWALK, "search"] + list(args)
                       + ["--format=json", path], capture_output=True)
    recs = [json.loads(l) for l in p.stdout.decode().splitlines()]
    hits = [r for r in recs if r["type"] == "hit"]
    summary = [r for r in recs if r["type"] == "summary"]
    return hits, summary[0] if summary else None, p.returncode


def as_cli(h):
    """A SearchHit as the CLI's JSON hit record reads back (json.loads
    of its escaped strings: each byte one character)."""
    rec = {"type": "hit", "pa": "0x%x" % h.pa,
           "va": None if h.va is None else "0x%x" % h.va,
           "root": None if h.root is None else "0x%x" % h.root,
           "pid": h.pid,
           "comm": None if h.comm is None else h.comm.decode("latin-1"),
           "pattern": h.pattern, "size": h.size, "hex": h.hex,
           "context_start": "0x%x" % h.context_start,
           "context": h.context.decode("latin-1")}
    if h.same_frame_pages:
        rec["same_frame_pages"] = h.same_frame_pages
        rec["page_size"] = h.page_size
    return rec


# (CLI options, image.search keywords, how to choose the space)
CASES = (
    (["--string=PGWALK", "--max-hits=300"],
     dict(string="PGWALK", max_hits=300), None),
    (["--phys", "--hex=50 47 57 ?? 4c 4b", "--context=8", "--max-hits=400"],
     dict(hex="50 47 57 ?? 4c 4b", context=8, max_hits=400, phys=True), None),
    (["--cpu=1", "--regex=PGW[A-Z]+-M[A-Z]*", "--context=0"],
     dict(regex="PGW[A-Z]+-M[A-Z]*", context=0), dict(cpu=1)),
    (["--comm=init", "--string=ELF", "--string=GLIBC", "--wide",
      "--max-hits=40"],
     dict(string=["ELF", "GLIBC"], wide=True, max_hits=40), dict(comm="init")),
    (["--comm=init", "--kernel-half", "--hex=7f454c46", "--max-hits=20"],
     dict(hex="7f454c46", kernel_half=True, max_hits=20), dict(comm="init")),
    (["--all-roots", "--string=PGWALK-FINAL", "--regex=PGW[A-Z]+-M",
      "--max-hits=50"],
     dict(string="PGWALK-FINAL", regex="PGW[A-Z]+-M", max_hits=50,
          all_roots=True), None),
)


# The CLI's names of a hit's address (pgwalk --names): not bound.
NAMES = ("symbol", "path", "file_offset", "path_truncated")


class AgainstCLI(unittest.TestCase):
    def compare(self, path):
        n = 0
        with pgwalk.open(path) as im:
            for args, kw, where in CASES:
                want, summary, rc = cli_search(path, *args)
                if where is not None:
                    try:
                        kw = dict(kw, space=im.space(**where))
                    except (pgwalk.NotFound, pgwalk.InvalidArgument) as e:
                        # arm64's --cpu: no TTBR in the notes (usage)
                        want_rc = 3 if isinstance(e, pgwalk.NotFound) else 64
                        self.assertEqual(rc, want_rc, (path, args))
                        continue
                it = im.search(**kw)
                got = [as_cli(h) for h in it]
                # What an address is (the CLI's symbol, path, file_offset,
                # path_truncated) is not bound: the rest must agree.
                want = [{k: v for k, v in h.items() if k not in NAMES}
                        for h in want]
                self.assertEqual(got, want, (path, args))
                s = dict(it.summary(), type="summary")
                self.assertEqual(s, summary, (path, args))
                n += len(got)
        return n

    def test_sample(self):
        self.assertGreater(self.compare(SAMPLE), 0)

    def test_real_dumps(self):
        # Found before the subtests: a skip inside one would leave the
        # count at 0 and fail the test instead of skipping it.
        elfs = [shared_dump(name)[0] for name in REAL]
        total = 0
        for name, elf in zip(REAL, elfs):
            with self.subTest(dump=name):
                total += self.compare(elf)
        self.assertGreater(total, 0)

    def test_filtered_kdump(self):
        _, folder = shared_dump("x64-4l-a")
        self.compare(os.path.join(folder, "vmcore-d31.kdump"))

    def test_yara(self):
        rules = os.path.join(RULES, "markers.yar")
        with pgwalk.open(SAMPLE) as im:
            try:
                it = im.search(yara=rules, phys=True)
            except pgwalk.Unsupported as e:
                self.skipTest("libyara: %s" % e)
            got = [as_cli(h) for h in it]
        want, _, _ = cli_search(SAMPLE, "--phys", "--yara=" + rules)
        self.assertEqual(got, want)
        self.assertTrue(got and all(h["pattern"].startswith("yara:")
                                    for h in got))


class Synthetic(unittest.TestCase):
    """tests/specs' search images (pgw-mkimage): every root of a kernel
    that maps a marker's frame, PROT_NONE pages, a shared table mapping
    one frame at 262144 pages -- as the CLI names them."""

    def image(self, spec):
        tool = os.path.join(TOOLS, "pgw-mkimage")
        if not os.access(tool, os.X_OK):
            self.skipTest("no pgw-mkimage (PGW_TOOLS=%r)" % TOOLS)
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        path = os.path.join(tmp, "s.elf")
        subprocess.run([tool, "-e", path, os.path.join(REPO, "tests",
                                                       "specs", spec)],
                       check=True, capture_output=True)
        return path

    def agree(self, path, args, where, **kw):
        want, summary, _ = cli_search(path, *args)
        with pgwalk.open(path) as im:
            if where is not None:
                kw["space"] = im.space(**where)
            it = im.search(**kw)
            got = [as_cli(h) for h in it]
            self.assertEqual(got, want, args)
            self.assertEqual(dict(it.summary(), type="summary"), summary)
        return got

    def test_all_roots(self):
        q = self.image("search-roots.spec")
        marks = ["SHARED-BY-TWO", "B-ALONE", "PROTNONE-MARK",
                 "IN-KERNEL-TEXT", "NOBODY-MAPS-ME"]
        got = self.agree(q, ["--all-roots", "--cr3=0x100000"]
                         + ["--string=" + m for m in marks],
                         dict(cr3=0x100000), all_roots=True, string=marks)
        # The spec's answer: the direct map, the text alias, both
        # processes' views of their shared frame, a PROT_NONE page, and
        # a frame nobody maps.
        self.assertEqual([(h["va"], h["pa"], h["root"]) for h in got], [
            ("0xffff888000080010", "0x80010", "0x100000"),
            ("0xffffffff81080010", "0x80010", "0x100000"),
            ("0xffff888000c00100", "0xc00100", "0x100000"),
            ("0x400100", "0xc00100", "0x400000"),
            ("0x7f0000000100", "0xc00100", "0x402000"),
            ("0xffff888000c01000", "0xc01000", "0x100000"),
            ("0x500000", "0xc01000", "0x402000"),
            ("0xffff888000c02000", "0xc02000", "0x100000"),
            ("0x600000", "0xc02000", "0x402000"),
            (None, "0x1100000", None)])

    def test_shared_table(self):
        r = self.image("search-repeat.spec")
        got = self.agree(r, ["--mode=x86-64", "--cr3=0x1000", "--context=0",
                             "--max-hits=100000", "--string=ONE-FRAME-MARK"],
                         dict(mode="x86-64", cr3=0x1000),
                         string="ONE-FRAME-MARK", context=0,
                         max_hits=100000)
        # 1 GiB onto one frame: every one of its 262144 pages named.
        self.assertEqual((sum(h.get("same_frame_pages", 1) for h in got),
                          {h["pa"] for h in got}), (262144, {"0x100100"}))


class Markers(unittest.TestCase):
    """Each marker's text is found in its process's space at the marker's
    va, in the frame the guest's pagemap named (PROT_NONE pages too)."""

    def test_markers(self):
        for name in ("x64-4l-a", "x64-5l-a"):
            elf, folder = shared_dump(name)
            by_pid = {}
            for (pid, va), (kind, pa, text) in markers(folder).items():
                if text and pa is not None:
                    by_pid.setdefault(pid, {})[va] = (pa, text)
            self.assertTrue(by_pid, name)
            with pgwalk.open(elf) as im:
                for pid, want in sorted(by_pid.items()):
                    texts = sorted({t for _, t in want.values()})
                    hits = {(h.va, h.pa, h.pattern)
                            for h in im.search(string=texts,
                                               space=im.space(pid=pid))}
                    for va, (pa, text) in want.items():
                        self.assertIn((va, pa, "string:" + text), hits,
                                      "%s pid %d" % (name, pid))


class Behaviour(unittest.TestCase):
    def test_bad_patterns(self):
        with pgwalk.open(SAMPLE) as im:
            for kw in (dict(hex="4d5z"), dict(hex=""), dict(string=""),
                       dict(regex="(a)\\1"), dict(regex="("), dict(),
                       dict(string="a\0b"), dict(string="x" * 4097)):
                with self.assertRaises(pgwalk.InvalidArgument, msg=kw):
                    im.search(**kw)
            with self.assertRaises(pgwalk.InvalidArgument):
                im.search(string="x", context=4097)
            with self.assertRaises(pgwalk.InvalidArgument):
                im.search(string="x", phys=True, space=im.kernel())
            if subprocess.run([PGWALK, "search", "--phys",
                               "--yara=" + os.path.join(RULES, "synth.yar"),
                               SAMPLE], capture_output=True).returncode != 69:
                with self.assertRaises(pgwalk.InvalidArgument):
                    im.search(yara=os.path.join(RULES, "broken.yar"))
                with self.assertRaises(pgwalk.ImageIOError):
                    im.search(yara=os.path.join(RULES, "absent.yar"))

    def test_max_hits_and_close(self):
        with pgwalk.open(SAMPLE) as im:
            every = list(im.search(hex="00 00", phys=True, context=0,
                                   max_hits=5000))
            self.assertEqual(len(every), 5000)
            it = im.search(hex="00 00", phys=True, context=0, max_hits=5000)
            first = [next(it) for _ in range(3)]
            self.assertEqual(first, every[:3])
            self.assertIsNone(it.summary())
            it.close()           # stops the walk: nothing left running
            self.assertEqual(list(it), [])
            it = im.search(string="PGWALK", max_hits=1)
            self.assertEqual(len(list(it)), 1)
            s = it.summary()
            self.assertEqual((s["listed"], s["complete"], s["reason"]),
                             (1, False, "hit-limit"))
            self.assertGreater(s["hits"], 1)
            left = im.search(string="PGWALK")
            next(left)
        # Closing the image stopped the walk left unfinished.
        self.assertEqual(list(left), [])
        self.assertIsNone(left.summary())


if __name__ == "__main__":
    unittest.main()
