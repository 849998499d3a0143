"""image.maps() and space.measure() against crash's `vm` (crash-vm.txt,
with the kernel's debug info) on the x86-64 real dumps: every process's
VMAs (struct address, start, end, vm_flags) and its RSS."""
import os
import unittest

import pgwalk
from common import shared_dump


def crash_vm(folder):
    """{pid: (rss_kib, [(vma, start, end, flags)])} from crash-vm.txt."""
    out = {}
    pid = None
    with open(os.path.join(folder, "crash-vm.txt")) as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        w = line.split()
        if line.startswith("crash> vm "):
            pid = int(w[2])
            out[pid] = [None, []]
        elif pid is not None and w[:3] == ["MM", "PGD", "RSS"]:
            out[pid][0] = int(lines[i + 1].split()[2].rstrip("k"))
        elif pid is not None and len(w) >= 4 and w[0] != "VMA" and \
                all(c in "0123456789abcdef" for c in "".join(w[:4])):
            out[pid][1].append(tuple(int(x, 16) for x in w[:4]))
    return out


class Maps(unittest.TestCase):
    def test_vmas_and_rss_as_crash(self):
        for name in ("x64-4l-a", "x64-5l-a"):
            elf, folder = shared_dump(name)
            want = crash_vm(folder)
            self.assertEqual(len(want), 8, name)
            with pgwalk.open(elf) as im:
                for pid, (rss, vmas) in sorted(want.items()):
                    m = im.maps(pid)
                    self.assertTrue(m.complete, (name, pid, m.why))
                    got = [(v.vma, v.start, v.end, v.flags) for v in m.vmas]
                    self.assertEqual(got, vmas, (name, pid))
                    sp = im.space(pid=pid)
                    usage = [sp.measure(v) for v in m.vmas]
                    self.assertTrue(all(u.complete for u in usage))
                    self.assertEqual(sum(u.rss for u in usage) // 1024, rss,
                                     (name, pid))

    def test_no_such_process(self):
        elf, _ = shared_dump("x64-4l-a")
        with pgwalk.open(elf) as im:
            with self.assertRaises(pgwalk.NotFound):
                im.maps(99999)
            with self.assertRaises(pgwalk.NotFound):
                im.maps(2)      # kthreadd: no mm
