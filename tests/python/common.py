"""What the Python tests share: where things are, the real dumps and
their oracles (the same files the CLI's tests read)."""
import os
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("PGW_SHARED") or os.path.join(REPO, "..", "shared", "testdata")
UNPACKED = os.environ.get("PGW_UNPACKED") or os.path.join(REPO, "build", "unpacked")
TOOLS = os.environ.get("PGW_TOOLS", "")
SAMPLE = os.path.join(REPO, "testdata", "x64-4l-a.elf")

# The x86 dumps: folder, whether its console markers carry their text.
DUMPS = (("x64-4l-a", True), ("x64-5l-a", True), ("i386-2l-a", False),
         ("i386-pae-a", False))


def shared_dump(name):
    """The unpacked vmcore.elf of a real dump and its oracle folder; the
    test is skipped (loudly, a failure under PGW_STRICT) without them."""
    elf = os.path.join(UNPACKED, name, "vmcore.elf")
    folder = os.path.join(SHARED, name)
    if not os.path.isdir(folder):
        raise unittest.SkipTest("no real dumps at %s" % SHARED)
    if not os.path.exists(elf):
        raise unittest.SkipTest("%s not unpacked (run %s/unpack.sh %s)"
                                % (elf, SHARED, UNPACKED))
    return elf, folder


def gva2gpa(folder):
    """QEMU's answers: {cpu: [(va, pa or None)]}."""
    out = {}
    with open(os.path.join(folder, "gva2gpa.txt")) as f:
        for line in f:
            w = line.split()
            if len(w) < 3 or not w[0].startswith("cpu"):
                continue
            pa = int(w[3], 16) if w[2] == "gpa:" else None
            out.setdefault(int(w[0][3:]), []).append((int(w[1], 16), pa))
    return out


def markers(folder):
    """The marker pages the guest printed (console.log, or a sample's
    markers.txt): {(pid, va): (kind, pa or None, text or None)}, the
    final line of each (x86-64 guests print PGWALK-FINAL lines last)."""
    path = os.path.join(folder, "console.log")
    if not os.path.exists(path):
        path = os.path.join(folder, "markers.txt")
    out = {}
    final = set()
    with open(path, errors="replace") as f:
        for line in f:
            w = line.split()
            if not w or w[0] not in ("PGWALK", "PGWALK-FINAL"):
                continue
            kv = dict(x.split("=", 1) for x in w[1:] if "=" in x)
            if "marker_va" not in kv or "pid" not in kv:
                continue
            key = (int(kv["pid"]), int(kv["marker_va"], 16))
            if w[0] == "PGWALK" and key in final:
                continue
            if w[0] == "PGWALK-FINAL":
                final.add(key)
            pa = kv.get("pa", "none")
            pa = None if pa == "none" or kv.get("present") == "0" else int(pa, 16)
            text = None
            if 'marker="' in line:
                text = line.split('marker="', 1)[1].split('"', 1)[0]
            out[key] = (kv.get("kind", ""), pa, text or None)
    return out

