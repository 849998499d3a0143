"""bench/python.sh's measurements: python_bench.py PGWALK ELF ADDRS RUNS.

Rows (median of RUNS, with the fastest and slowest):
  cli tsv batch        pgwalk translate --cr3=CPU1 --format=tsv - <ADDRS
                       >/dev/null, the process included
  translate_many       open, space(cr3=) and translate_many of the batch
                       (already integers: what a Python caller holds)
  translate_many call  the call alone, on an open space, cache cold
  read 64 MiB          space.read of 64 MiB of the kernel's direct map
                       (a new bytes object each time, filled in place)
  readinto 64 MiB      space.readinto, the same bytes into one buffer
  read_phys 64 MiB     image.read_phys of the same bytes
  cli search --phys    pgwalk search --phys --string=PGWALK-MARKER
                       --max-hits=100000 --format=json >/dev/null
  search phys          the same hits from image.search(phys=True) (open
                       included), every field converted
"""
import array
import statistics
import subprocess
import sys
import time

import pgwalk

pgw, elf, addrs, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
with open(addrs) as f:
    vas = array.array("Q", (int(l, 16) for l in f if l.strip()))
n = len(vas)
with pgwalk.open(elf) as im:
    cr3 = im.info()["cpus"][1]["registers"]["cr3"]


def timed(fn):
    t = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        t.append((time.perf_counter() - t0) * 1000)
    return statistics.median(t), min(t), max(t)


def cli():
    with open(addrs) as i, open("/dev/null", "w") as o:
        subprocess.run([pgw, "translate", "--mode=x86-64", "--cr3=%#x" % cr3,
                        "--format=tsv", elf, "-"], stdin=i, stdout=o,
                        check=False)


def whole():
    with pgwalk.open(elf) as im:
        im.space(mode="x86-64", cr3=cr3).translate_many(vas)


def call():
    with pgwalk.open(elf) as im:
        sp = im.space(mode="x86-64", cr3=cr3)
        t0 = time.perf_counter()
        sp.translate_many(vas)
        return (time.perf_counter() - t0) * 1000


size = 64 << 20
with pgwalk.open(elf) as im:
    k = im.kernel()
    # The direct map's base: where a kernel-half 2 MiB page below the
    # kernel image's addresses maps physical 48 MiB.
    base = min(h.va - h.pa for h in im.ptov(48 << 20)
               if h.page_size >= 2 << 20 and h.va < 0xffffffff80000000)
    rows = [("cli tsv batch", timed(cli)), ("translate_many", timed(whole))]
    c = sorted(call() for _ in range(runs))
    rows.append(("translate_many call", (c[len(c) // 2], c[0], c[-1])))
    rows.append(("read 64 MiB", timed(lambda: k.read(base + (16 << 20), size))))
    buf = bytearray(size)
    rows.append(("readinto 64 MiB", timed(lambda: k.readinto(base + (16 << 20), buf))))
    rows.append(("read_phys 64 MiB", timed(lambda: im.read_phys(16 << 20, size))))



def cli_search():
    with open("/dev/null", "w") as o:
        subprocess.run([pgw, "search", "--phys", "--string=PGWALK-MARKER",
                        "--max-hits=100000", "--format=json", elf], stdout=o,
                       check=False)


def py_search():
    with pgwalk.open(elf) as im:
        for _ in im.search(string="PGWALK-MARKER", phys=True):
            pass


rows.append(("cli search --phys", timed(cli_search)))
rows.append(("search phys", timed(py_search)))

print("%-22s %9s %19s %10s %8s" % ("x64-4l-a, %d addrs" % n, "ms(med)",
                                   "min-max", "rate", "vs cli"))
cli_ms = rows[0][1][0]
for name, (med, lo, hi) in rows:
    if name == "search phys":
        rate, ratio = "-", "%.2fx" % (med / rows[-2][1][0])
    elif name.startswith("cli search"):
        rate, ratio = "-", "-"
    elif name.startswith("read"):
        rate, ratio = "%.2f GB/s" % (size / med / 1e6), "-"
    else:
        rate, ratio = "%.1f M/s" % (n / med / 1e3), "%.2fx" % (med / cli_ms)
    print("%-22s %9.1f %9.1f-%-9.1f %10s %8s" % (name, med, lo, hi, rate, ratio))
