"""examples/*.py run on a real dump: ps's resident bytes are the user
bytes `pgwalk roots` counts for each process and its pids crash's;
whomaps finds each marker page in its process, as the guest said."""
import os
import subprocess
import sys
import unittest

from common import REPO, shared_dump, markers
from test_api import cli


def example(name, *args):
    return subprocess.run([sys.executable, os.path.join(REPO, "examples", name)]
                          + list(args), capture_output=True, text=True)


class Examples(unittest.TestCase):
    def test_ps(self):
        elf, folder = shared_dump("x64-4l-a")
        p = example("ps.py", elf)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        rows = [l.split(None, 2) for l in p.stdout.splitlines()[1:]]
        with open(os.path.join(folder, "crash-ps.txt")) as f:
            crash = {int(w[0]) for w in (l.replace(">", " ").split() for l in f)
                     if len(w) > 8 and w[0].isdigit()}
        self.assertEqual({int(r[0]) for r in rows}, crash)
        user = {r["pid"]: r["user_bytes"] for r in cli("roots", elf)
                if r["type"] == "root" and r.get("pid") is not None}
        got = {int(r[0]): int(r[1]) for r in rows if r[1] != "-"}
        self.assertEqual(got, user)
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
