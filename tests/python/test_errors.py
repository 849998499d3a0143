"""Every exception class, raised where the CLI exits with its status, and
the hostile images of tests/tools never crashing the interpreter."""
import errno
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import pgwalk
from common import SAMPLE, TOOLS



def first_missing_page(sp):
    """A mapped 4 KiB page whose data the image lacks, after one it
    holds."""
    return next(m.va + 4096 for m in sp.mappings()
                if m.page_size == 4096
                and sp.translate(m.va).data_absence is None
                and sp.translate(m.va + 4096).data_absence is not None)

class Exceptions(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_image_io_error(self):
        with self.assertRaises(pgwalk.ImageIOError) as cm:
            pgwalk.open(os.path.join(self.tmp, "absent.elf"))
        self.assertEqual(cm.exception.errno, errno.ENOENT)
        self.assertIsInstance(cm.exception, OSError)

    def test_bad_image(self):
        path = os.path.join(self.tmp, "text")
        with open(path, "w") as f:
            f.write("not a memory image\n")
        with self.assertRaisesRegex(pgwalk.BadImage, "not a recognised memory image"):
            pgwalk.open(path)

    def test_unsupported(self):
        # A big-endian ELF (bad-input.t's case: exit 69).
        path = os.path.join(self.tmp, "be.elf")
        shutil.copy(SAMPLE, path)
        with open(path, "r+b") as f:
            f.seek(5)
            f.write(b"\x02")
        with self.assertRaises(pgwalk.Unsupported):
            pgwalk.open(path)

    def test_invalid_argument(self):
        with self.assertRaisesRegex(pgwalk.InvalidArgument, "unknown image format"):
            pgwalk.open(SAMPLE, image_format="nonsense")
        with pgwalk.open(SAMPLE) as im:
            with self.assertRaises(ValueError):
                im.space(mode="nonsense")

    def test_not_found(self):
        with pgwalk.open(SAMPLE) as im:
            with self.assertRaisesRegex(pgwalk.NotFound, "CPU 7: the image has CPU state for 2 CPUs"):
                im.space(cpu=7)

    def test_not_in_image(self):
        with pgwalk.open(SAMPLE) as im:
            with self.assertRaises(pgwalk.NotInImage) as cm:
                im.read_phys(1 << 40, 8)
            self.assertEqual(cm.exception.absence, "outside")

    def test_not_mapped_with_partial_data(self):
        with pgwalk.open(SAMPLE) as im:
            k = im.kernel()
            with self.assertRaisesRegex(pgwalk.NotMapped, "virtual address 0x0: not present"):
                k.read(0, 8)
        # A marker page the sample holds, then one it cannot read: the
        # bytes before the stop come with the exception.
        with pgwalk.open(SAMPLE) as im:
            sp = im.space(cpu=1)
            va = first_missing_page(sp)
            with self.assertRaises(pgwalk.NotInImage) as cm:
                sp.read(va - 16, 32)
            self.assertEqual(cm.exception.absence, "outside")
            self.assertEqual(cm.exception.data, sp.read(va - 16, 16))
            self.assertEqual(len(cm.exception.data), 16)

    def test_big_reads_filled_in_place(self):
        # From 64 KiB up, read() and read_phys() fill a new bytes object
        # in place: the bytes small reads give, a new object each time,
        # and the same stop with the bytes before it.
        with pgwalk.open(SAMPLE) as im:
            r = max(im.info()["ranges"], key=lambda r: r["size"])
            n = 1 << 17
            self.assertGreaterEqual(r["size"], n)
            big = im.read_phys(r["pa"], n)
            self.assertIs(type(big), bytes)
            self.assertEqual(big, b"".join(im.read_phys(r["pa"] + o, 4096)
                                           for o in range(0, n, 4096)))
            self.assertIsNot(big, im.read_phys(r["pa"], n))
            with self.assertRaises(pgwalk.NotInImage) as cm:
                im.read_phys(r["end"] - n + 4096, n)
            self.assertEqual(cm.exception.absence, "outside")
            sp = im.space(cpu=1)
            va = first_missing_page(sp)
            with self.assertRaises(pgwalk.NotInImage) as cm:
                sp.read(va - 16, n)
            self.assertEqual(cm.exception.data, sp.read(va - 16, 16))

    def test_limit_reached(self):
        with pgwalk.open(SAMPLE) as im:
            it = im.kernel().mappings(max_entries=10, holes=True)
            seen = []
            with self.assertRaisesRegex(pgwalk.LimitReached, "entry budget of 10 exhausted"):
                for m in it:
                    seen.append(m)
            self.assertFalse(it.complete)

    def test_closed_image(self):
        im = pgwalk.open(SAMPLE)
        k = im.kernel()
        it = k.mappings()
        next(it)
        im.close()
        with self.assertRaisesRegex(ValueError, "closed"):
            k.translate(0)
        with self.assertRaises(StopIteration):
            next(it)
        im.close()


# Run in a child interpreter: a crash there fails the test, not the suite.
HOSTILE = r"""
import sys, pgwalk
path, mode = sys.argv[1], sys.argv[2]
fmt = "raw" if path.endswith(".raw") else None
with pgwalk.open(path, image_format=fmt) as im:
    sp = im.space(mode=mode, cr3=0x1000)
    sp.translate_many(range(0, 1 << 32, 1 << 21))
    for va in (0, 0x1000, 1 << 39, (1 << 64) - 4096):
        sp.translate(va)
        try:
            sp.read(va, 8192)
        except (pgwalk.NotMapped, pgwalk.NotInImage):
            pass
    try:
        n = sum(1 for _ in sp.mappings(holes=True))
        print("complete", n)
    except pgwalk.LimitReached as e:
        print("budget", e)
"""


class Hostile(unittest.TestCase):
    def test_hostile_images(self):
        if not TOOLS or not os.path.exists(os.path.join(TOOLS, "mkhostile")):
            self.skipTest("no tests/tools build (PGW_TOOLS)")
        tmp = tempfile.mkdtemp()
        try:
            subprocess.run([os.path.join(TOOLS, "mkhostile"), tmp], check=True)
            with open(os.path.join(tmp, "MANIFEST")) as f:
                manifest = [l.split("\t") for l in f.read().splitlines()]
            self.assertEqual(len(manifest), 8)
            for name, mode, what in manifest:
                p = subprocess.run([sys.executable, "-c", HOSTILE,
                                    os.path.join(tmp, name), mode],
                                   capture_output=True, text=True, timeout=120)
                self.assertEqual((name, p.returncode, p.stderr), (name, 0, ""))
                want = "budget" if what == "budget" else "complete"
                self.assertEqual((name, p.stdout.split()[0]), (name, want))
        finally:
            shutil.rmtree(tmp)


# Every corrupt image, one after another, in one child interpreter that
# prints each one's outcome as it goes (a crash names the image it was on).
CORRUPT = r"""
import sys, pgwalk
for line in open(sys.argv[1] + "/MANIFEST").read().splitlines():
    name, code, text, tcode, targs = (line.split("\t") + [""] * 5)[:5]
    opts = dict(a[2:].split("=", 1) for a in targs.split())
    try:
        with pgwalk.open(sys.argv[1] + "/" + name) as im:
            im.info()
            try:
                sp = im.space(mode=opts.get("mode"),
                              cr3=int(opts["cr3"], 0) if "cr3" in opts else None)
                sp.translate(0xffff888000200000)
                sp.translate_many([0xffff888000200000, 0])
                outcome = "translates"
            except pgwalk.Error as e:
                outcome = "space:" + type(e).__name__
    except pgwalk.Error as e:
        outcome = "open:" + type(e).__name__
    print(name, outcome, flush=True)
"""


class Corrupt(unittest.TestCase):
    def test_corrupt_images(self):
        # tests/tools/mkcorrupt's corpus and the CLI's exit statuses for it
        # (its MANIFEST, corrupt.t's oracle): an image info cannot open
        # raises that status's class from open(); one it opens opens, and
        # translate's "no mode or root" (3) is NotFound from space().
        if not TOOLS or not os.path.exists(os.path.join(TOOLS, "mkcorrupt")):
            self.skipTest("no tests/tools build (PGW_TOOLS)")
        tmp = tempfile.mkdtemp()
        try:
            subprocess.run([os.path.join(TOOLS, "mkcorrupt"), tmp], check=True)
            want = []
            with open(os.path.join(tmp, "MANIFEST")) as f:
                for line in f.read().splitlines():
                    name, code, _, tcode = (line.split("\t") + [""] * 4)[:4]
                    by_open = {"65": "open:BadImage", "66": "open:ImageIOError",
                               "69": "open:Unsupported"}
                    if code in by_open:
                        want.append("%s %s" % (name, by_open[code]))
                    elif tcode == "3":
                        want.append("%s space:NotFound" % name)
                    else:
                        want.append("%s translates" % name)
            p = subprocess.run([sys.executable, "-c", CORRUPT, tmp],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual((p.returncode, p.stderr), (0, ""))
            self.assertEqual(p.stdout.splitlines(), want)
            self.assertEqual(len(want), 63)
        finally:
            shutil.rmtree(tmp)
