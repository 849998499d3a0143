"""The package against the oracles the CLI's tests use: QEMU's gva2gpa
through every CPU (translate and translate_many), the guest's own marker
pages (space(pid=), translate, read), crash's ps (tasks), on the committed
samples always and on the real dumps when ../shared has them."""
import os
import re
import unittest

import pgwalk
from common import REPO, DUMPS, shared_dump, gva2gpa, markers


def qemu_agrees(test, image, folder):
    """Every gva2gpa answer of every CPU, by translate_many and translate;
    returns how many were compared."""
    n = 0
    for cpu, answers in sorted(gva2gpa(folder).items()):
        space = image.space(cpu=cpu)
        got = space.translate_many([va for va, _ in answers])
        bad = []
        for i, (va, pa) in enumerate(answers):
            many = got.pa[i] if got.stop[i] == 0 else None
            one = space.translate(va).pa
            if many != pa or one != pa:
                bad.append("cpu%d %#x: want %s, translate_many %s, translate %s"
                           % (cpu, va, pa, many, one))
        test.assertEqual(bad, [])
        test.assertEqual(len(got.pa), len(answers))
        n += len(answers)
    return n


def markers_agree(test, image, folder):
    """Each marker page through its process's space (space(pid=)): the
    guest's pa (PROT_NONE and untouched pages unmapped), and the marker's
    text read at its va.  Returns (pages, texts) compared."""
    pages = texts = 0
    spaces = {}
    for (pid, va), (kind, pa, text) in sorted(markers(folder).items()):
        if pid not in spaces:
            spaces[pid] = image.space(pid=pid)
        t = spaces[pid].translate(va)
        want = None if kind.startswith("protnone") else pa
        test.assertEqual((kind, t.pa), (kind, want), "pid %d va %#x" % (pid, va))
        pages += 1
        if want is not None and text:
            test.assertEqual(spaces[pid].read(va, len(text)), text.encode())
            buf = bytearray(len(text))
            test.assertEqual(spaces[pid].readinto(va, buf), len(text))
            test.assertEqual(buf, text.encode())
            phys = bytearray(len(text))
            image.readinto_phys(want, phys)
            test.assertEqual(phys, text.encode())
            texts += 1
    return pages, texts


class Samples(unittest.TestCase):
    """The committed samples (testdata/): page tables and marker pages."""

    def test_gva2gpa(self):
        for name, _ in DUMPS:
            with pgwalk.open(os.path.join(REPO, "testdata", name + ".elf")) as im:
                n = qemu_agrees(self, im, os.path.join(REPO, "testdata", name))
                lines = sum(1 for _ in open(os.path.join(REPO, "testdata", name,
                                                         "gva2gpa.txt")))
                self.assertEqual(n, lines, name)

    def test_marker_text(self):
        # The sample's markers are CPU 1's process's; its task list is not
        # in the sample, so the space is CPU 1's.
        with pgwalk.open(os.path.join(REPO, "testdata", "x64-4l-a.elf")) as im:
            space = im.space(cpu=1)
            n = 0
            for (pid, va), (kind, pa, text) in markers(
                    os.path.join(REPO, "testdata", "x64-4l-a")).items():
                if text and pa is not None and not kind.startswith("protnone"):
                    self.assertEqual(space.read(va, len(text)), text.encode())
                    n += 1
            with open(os.path.join(REPO, "testdata", "x64-4l-a",
                                   "markers.txt")) as f:
                want = len({l.split('marker="')[1] for l in f
                            if 'marker="PGWALK' in l and "pa=none" not in l
                            and "kind=protnone" not in l})
            self.assertEqual(n, want)


class RealDumps(unittest.TestCase):
    """The real dumps of ../shared (skipped, loudly, without them)."""

    def test_gva2gpa(self):
        for name, _ in DUMPS:
            elf, folder = shared_dump(name)
            with pgwalk.open(elf) as im:
                n = qemu_agrees(self, im, folder)
                lines = sum(1 for l in open(os.path.join(folder, "gva2gpa.txt"))
                            if l.startswith("cpu"))
                self.assertEqual(n, lines, name)

    def test_markers(self):
        for name, _ in DUMPS:
            elf, folder = shared_dump(name)
            with pgwalk.open(elf) as im:
                pages, texts = markers_agree(self, im, folder)
            self.assertEqual(pages, len(markers(folder)), name)
            # console.log's marker texts of mapped pages, counted apart.
            with open(os.path.join(folder, "console.log"), errors="replace") as f:
                lines = {l.split(" note=")[0] for l in f
                         if l.startswith("PGWALK-FINAL") and 'marker="PGWALK' in l
                         and "pa=none" not in l and "kind=protnone" not in l}
            self.assertEqual(texts, len(lines), name)

    def test_big_read(self):
        # 4 MiB of the kernel's direct map (crash's page_offset) read
        # through the kernel space: the physical bytes from 16 MiB.
        elf, folder = shared_dump("x64-4l-a")
        with open(os.path.join(folder, "crash-machine.txt")) as f:
            base = int(re.search(r"\bpage_offset: ([0-9a-f]+)", f.read()).group(1), 16)
        with pgwalk.open(elf) as im:
            got = im.kernel().read(base + (16 << 20), 4 << 20)
            self.assertEqual(got, im.read_phys(16 << 20, 4 << 20))
            self.assertEqual(got[:4096], im.kernel().read(base + (16 << 20), 4096))

    def test_space_by_comm(self):
        # crash's mm->pgd of every process (process-roots.txt) by comm and
        # by pid; a kernel thread's comm names no space.
        for name in ("x64-4l-a", "x64-5l-a"):
            elf, folder = shared_dump(name)
            with open(os.path.join(folder, "process-roots.txt")) as f:
                want = [dict(w.split("=", 1) for w in l.split())
                        for l in f if l.startswith("pid=")]
            self.assertGreaterEqual(len(want), 7, name)
            with pgwalk.open(elf) as im:
                for w in want:
                    sp = im.space(comm=w["comm"])
                    self.assertEqual((sp.pid, sp.comm, sp.root),
                                     (int(w["pid"]), w["comm"].encode(),
                                      int(w["pgd_phys"], 16)), name)
                    self.assertEqual(im.space(pid=sp.pid).root, sp.root)
                with self.assertRaisesRegex(pgwalk.Error, "kernel thread"):
                    im.space(comm="kthreadd")
                with self.assertRaises(pgwalk.NotFound):
                    im.space(comm="no-such-process")

    def test_crash_ps(self):
        for name in ("x64-4l-a", "x64-5l-a"):
            elf, folder = shared_dump(name)
            want = set()
            with open(os.path.join(folder, "crash-ps.txt")) as f:
                for line in f:
                    w = line.replace(">", " ").split()
                    if len(w) < 9 or not w[0].isdigit():
                        continue
                    comm = " ".join(w[8:])
                    kthread = comm.startswith("[") and comm.endswith("]")
                    if kthread:
                        comm = comm[1:-1]
                    if w[0] == "0" and comm != "swapper/0":
                        continue   # the other CPUs' idle tasks: no list entry
                    want.add((int(w[0]), comm, kthread, int(w[3], 16)))
            with pgwalk.open(elf) as im:
                got = {(t.pid, t.name, t.kthread, t.task) for t in im.tasks()}
            self.assertEqual(got, want, name)
            self.assertGreater(len(want), 50)

    def test_filtered_kdump(self):
        # makedumpfile -d 31 left user data out: a marker page's frame is
        # there in the ELF and "excluded" in the kdump -- never zeros.
        elf, folder = shared_dump("x64-4l-a")
        kdump = os.path.join(folder, "vmcore-d31.kdump")
        (pid, va), (kind, pa, text) = next(
            (k, v) for k, v in sorted(markers(folder).items())
            if v[0] == "anon4k" and v[2])
        with pgwalk.open(elf) as im:
            self.assertEqual(im.read_phys(pa, len(text)), text.encode())
        with pgwalk.open(kdump) as im:
            self.assertEqual(im.format, "kdump")
            with self.assertRaises(pgwalk.NotInImage) as cm:
                im.read_phys(pa, len(text))
            self.assertEqual(cm.exception.absence, "excluded")
            space = im.space(pid=pid)
            t = space.translate(va)
            self.assertEqual((t.pa, t.data_absence), (pa, "excluded"))
            with self.assertRaises(pgwalk.NotInImage) as cm:
                space.read(va, len(text))
            self.assertEqual((cm.exception.absence, cm.exception.data),
                             ("excluded", b""))


def el_vcpus(folder):
    """{"EL0t" or "EL1h": (vCPU, TTBR0_EL1, TTBR1_EL1)} from README.txt."""
    out = {}
    with open(os.path.join(folder, "README.txt")) as f:
        for l in f:
            m = re.match(r"vCPU(\d+): .* (EL[01][th]) .*TTBR0_EL1=(0x[0-9a-f]+) "
                         r"TTBR1_EL1=(0x[0-9a-f]+)", l)
            if m:
                out[m.group(2)] = (int(m.group(1)), int(m.group(3), 16),
                                   int(m.group(4), 16))
    return out


class Arm64(unittest.TestCase):
    def test_ttbr_spaces(self):
        # The vCPU stopped in EL0: its TTBR0/TTBR1 (README.txt's register
        # values, as the CLI's --ttbr0/--ttbr1 take them) answer every
        # user address QEMU's gva2gpa answered there, tagged copies too,
        # as EL0 sees them (pages without user access Unmapped); TTBR0
        # alone keeps the kernel's upper table; the EL1 vCPU's TTBR1
        # alone answers its kernel addresses.
        for name in ("arm64-4k-a", "arm64-16k-a"):
            elf, folder = shared_dump(name)
            el = el_vcpus(folder)
            cpu, ttbr0, ttbr1 = el["EL0t"]
            answers = [(va, pa) for va, pa in gva2gpa(folder)[cpu]
                       if not va >> 63]
            self.assertGreater(len(answers), 200, name)
            with pgwalk.open(elf) as im:
                sp = im.space(ttbr0=ttbr0, ttbr1=ttbr1)
                self.assertEqual((sp.root, sp.root_upper),
                                 (ttbr0 & ~0xfff, ttbr1 & 0xfffffffff000), name)
                el0 = []
                for va, _ in answers:
                    t = sp.translate(va)
                    el0.append(t.pa if t.mapped and "user" in t.flags else None)
                self.assertEqual(el0, [pa for _, pa in answers], name)
                many = sp.translate_many([va for va, _ in answers])
                self.assertEqual([p if s == 0 else None
                                  for p, s in zip(many.pa, many.stop)],
                                 [sp.translate(va).pa for va, _ in answers])
                alone = im.space(ttbr0=ttbr0)
                self.assertEqual((alone.root, alone.root_upper),
                                 (sp.root, im.kernel().root_upper), name)
                kcpu, _, kttbr1 = el["EL1h"]
                kanswers = [(va, pa) for va, pa in gva2gpa(folder)[kcpu]
                            if va >> 63]
                k = im.space(ttbr1=kttbr1)
                self.assertEqual([k.translate(va).pa for va, _ in kanswers],
                                 [pa for _, pa in kanswers], name)
                with self.assertRaises(pgwalk.InvalidArgument):
                    im.space(cr3=0x1000)
        with pgwalk.open(shared_dump("x64-4l-a")[0]) as im:
            with self.assertRaises(pgwalk.InvalidArgument):
                im.space(ttbr0=0x1000)


    def test_kernel_space_as_qemu(self):
        # QEMU answers kernel addresses only on the vCPU stopped in EL1
        # (README.txt: "vCPUn: ... EL1h"); the kernel space, TTBR1 from
        # VMCOREINFO with no lower-half table, answers them all alike, and
        # a lower-half address stops not-present before any step (that
        # batch once read the missing step: an interpreter crash).
        for name in ("arm64-4k-a", "arm64-16k-a"):
            elf, folder = shared_dump(name)
            with open(os.path.join(folder, "README.txt")) as f:
                el1 = [int(l.split(":")[0][4:]) for l in f
                       if l.startswith("vCPU") and " EL1h " in l]
            self.assertEqual(len(el1), 1, name)
            answers = [(va, pa) for va, pa in gva2gpa(folder)[el1[0]] if va >> 63]
            with pgwalk.open(elf) as im:
                k = im.kernel()
                self.assertEqual((k.root, k.root_upper & 0xfff), (0, 0), name)
                self.assertEqual(k.translate(answers[0][0]).levels[0].table,
                                 k.root_upper, name)
                got = k.translate_many([va for va, _ in answers])
                self.assertEqual([p if s == 0 else None for p, s in zip(got.pa, got.stop)],
                                 [pa for _, pa in answers], name)
                self.assertEqual([k.translate(va).pa for va, _ in answers],
                                 [pa for _, pa in answers], name)
                low = k.translate_many([0x400000, 0x1000])
                self.assertEqual([pgwalk.STOPS[s] for s in low.stop],
                                 ["not-present", "not-present"], name)
                self.assertEqual(k.translate(0x400000).levels, ())
            self.assertGreater(len(answers), 200, name)
