#!/usr/bin/env python3
"""A process list with each process's resident memory, from a dump:

    python3 examples/ps.py IMAGE

One line per task of the kernel's list: pid, RSS in KiB as ps and smaps
count it (the page tables measured VMA by VMA: image.maps and
space.measure; "-" when the image has no BTF to read VMAs with), MAPPED
(the bytes its page tables map to a frame user mode may access, VMAs or
not) and its name, escaped.  A process whose page tables the dump lacks
in part says so ("partial"): the bytes under them are unknown.  Kernel
threads have no address space of their own.
"""
import sys

import pgwalk


def rss_kib(image, space, pid):
    """RSS in KiB and whether it is whole; None without VMAs to measure."""
    try:
        maps = image.maps(pid)
    except pgwalk.NotFound:
        return None, True
    usage = [space.measure(vma) for vma in maps.vmas]
    whole = maps.complete and all(u.complete and not u.unknown for u in usage)
    return sum(u.rss for u in usage) // 1024, whole


def mapped_bytes(space):
    """User-accessible bytes mapped, and whether every table was there."""
    maps = space.mappings()
    mapped = sum((m.end - m.va) % (1 << 64) for m in maps if "user" in m.flags)
    return mapped, maps.complete


def main():
    with pgwalk.open(sys.argv[1]) as image:
        print("%7s %9s %12s  %s" % ("PID", "RSS", "MAPPED", "COMM"))
        for task in image.tasks():
            if task.root is None:
                print("%7d %9s %12s  [%s]" % (task.pid, "-", "-", task.name))
                continue
            space = image.space(root=task.root)
            rss, rss_whole = rss_kib(image, space, task.pid)
            mapped, mapped_whole = mapped_bytes(space)
            print("%7d %9s %12d  %s%s" % (
                task.pid, "-" if rss is None else rss, mapped, task.name,
                "" if rss_whole and mapped_whole else "  (partial)"))


if __name__ == "__main__":
    main()
