#!/usr/bin/env python3
"""A process list with each process's resident memory, from a dump:

    python3 examples/ps.py IMAGE

One line per task of the kernel's list: pid, resident (the bytes its page
tables map to a frame user mode may access) and its name, escaped.  A
process whose page tables the dump lacks in part says so ("partial"): the
bytes under them are unknown.  Kernel threads have no address space of
their own ("-").
"""
import sys

import pgwalk


def resident(image, task):
    """(user bytes mapped to a frame, complete) of task's address space:
    its map runs that user mode may access."""
    maps = image.space(root=task.root).mappings()
    mapped = sum((m.end - m.va) % (1 << 64) for m in maps if "user" in m.flags)
    return mapped, maps.complete


def main():
    with pgwalk.open(sys.argv[1]) as image:
        print("%7s %12s  %s" % ("PID", "RESIDENT", "COMM"))
        for task in image.tasks():
            if task.root is None:
                print("%7d %12s  [%s]" % (task.pid, "-", task.name))
                continue
            mapped, complete = resident(image, task)
            print("%7d %12d  %s%s" % (task.pid, mapped, task.name,
                                      "" if complete else "  (partial)"))


if __name__ == "__main__":
    main()
