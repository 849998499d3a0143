#!/usr/bin/env python3
"""Who maps this frame: every process (and the kernel) whose page tables
map a physical address, from a dump:

    python3 examples/whomaps.py IMAGE PA...

One line per mapping: the physical address, who ("kernel", or a process's
pid and name for its user pages), the virtual address and the page size.
Each address space is walked once for all the addresses (image.rmap).
Exit status 1 when no one maps one of them.
"""
import sys

import pgwalk


def main():
    pas = [int(a, 0) for a in sys.argv[2:]]
    with pgwalk.open(sys.argv[1]) as image:
        owners = {}
        kernel = image.kernel()
        owners[kernel] = "kernel"
        for task in image.tasks():
            if task.root is not None and task.pid == task.tgid:
                owners[image.space(root=task.root)] = "%d %s" % (task.pid,
                                                                  task.name)
        rmap = image.rmap(owners)
        unmapped = 0
        for pa in pas:
            hits = [h for h in rmap.lookup(pa)
                    if h.space is kernel or "user" in h.flags]
            for h in hits:
                print("%#x\t%s\t%#x\t%d" % (pa, owners[h.space], h.va,
                                            h.page_size))
            unmapped += not hits
        sys.exit(1 if unmapped else 0)


if __name__ == "__main__":
    main()
