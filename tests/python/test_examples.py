"""examples/*.py run on the real dumps: ps's RSS is crash ps's, its
mapped bytes what `pgwalk roots` counts for each process and its pids
crash's; whomaps finds each marker page in its process, as the guest
said; python/README.md's example prints what the CLI answers."""
import os
import subprocess
import sys
import unittest

from common import REPO, SAMPLE, shared_dump, markers
from test_api import cli


def example(name, *args):
    return subprocess.run([sys.executable, os.path.join(REPO, "examples", name)]
                          + list(args), capture_output=True, text=True)


class Examples(unittest.TestCase):
    def test_ps(self):
        # RSS as crash ps prints it (the kernel's counters); MAPPED as
        # pgwalk roots counts user bytes; the pids crash's.
        for name in ("x64-4l-a", "x64-5l-a"):
            elf, folder = shared_dump(name)
            p = example("ps.py", elf)
            self.assertEqual((p.returncode, p.stderr), (0, ""))
            rows = [l.split(None, 3) for l in p.stdout.splitlines()[1:]]
            crash = {}
            with open(os.path.join(folder, "crash-ps.txt")) as f:
                for w in (l.replace(">", " ").split() for l in f):
                    if len(w) > 8 and w[0].isdigit() and w[7].isdigit():
                        crash.setdefault(int(w[0]), int(w[7]))
            self.assertEqual({int(r[0]) for r in rows}, set(crash))
            got = {int(r[0]): int(r[1]) for r in rows if r[1] != "-"}
            self.assertEqual(got, {pid: rss for pid, rss in crash.items() if rss})
            user = {r["pid"]: r["user_bytes"] for r in cli("roots", elf)
                    if r["type"] == "root" and r.get("pid") is not None}
            self.assertEqual({int(r[0]): int(r[2]) for r in rows if r[2] != "-"},
                             user)
            self.assertEqual(len(got), 8)

    def test_whomaps(self):
        elf, folder = shared_dump("x64-4l-a")
        want = {(pa, pid, va) for (pid, va), (kind, pa, text)
                in markers(folder).items()
                if kind in ("anon4k", "thp", "hugetlb", "heap", "stack") and pa}
        pas = sorted({"%#x" % pa for pa, _, _ in want})
        p = example("whomaps.py", elf, *pas)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        got = set()
        for line in p.stdout.splitlines():
            pa, who, va, size = line.split("\t")
            if who != "kernel":
                got.add((int(pa, 16), int(who.split()[0]), int(va, 16)))
        self.assertEqual(want - got, set())
        self.assertEqual(len(want), 33)


class Readme(unittest.TestCase):
    def test_readme_block(self):
        # python/README.md's example, run on the bundled sample.
        with open(os.path.join(REPO, "python", "README.md")) as f:
            text = f.read()
        block = text.split("runs this block -->\n```python\n", 1)[1].split("```", 1)[0]
        p = subprocess.run([sys.executable, "-c", block], cwd=REPO,
                           capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertEqual(p.stdout.splitlines()[0],
                         "0x7177390 4096 ['pgd', 'pud', 'pmd', 'pte']")
        mapped = sum(1 for r in cli("translate", "--cpu=1", SAMPLE,
                                    *("%#x" % va for va in range(0x400000, 0x500000, 0x1000)))
                     if r["type"] == "translation" and r["pa"] is not None)
        self.assertEqual(p.stdout.splitlines()[1], "%d of 256 pages mapped" % mapped)
        self.assertRegex(p.stdout.splitlines()[2], r"^not mapped: virtual address 0x0: not present")
