"""Image.info(): the facts of `pgwalk info --format=json`, as Python
values (addresses and masks as ints where the JSON spells them "0x..")."""
from ._ffi import ffi, lib
from ._errors import cstr
from ._keys import ABSENCES

# VMCOREINFO's keys in the order info shows them, and how each is read
# (src/cli/formatters.c's out_vmci_fields): a key the kernel does not
# export is left out, one whose value is not a number of its kind None.
VMCI_FIELDS = (
    ("osrelease", "OSRELEASE", "str"),
    ("page_size", "PAGESIZE", "num"),
    ("kerneloffset", "KERNELOFFSET", "num"),
    ("phys_base", "NUMBER(phys_base)", "num"),
    ("pgtable_l5_enabled", "NUMBER(pgtable_l5_enabled)", "num"),
    ("config_x86_pae", "CONFIG_X86_PAE", "bool"),
    ("max_physmem_bits", "NUMBER(MAX_PHYSMEM_BITS)", "num"),
    ("sme_mask", "NUMBER(sme_mask)", "num"),
    ("init_top_pgt", "SYMBOL(init_top_pgt)", "num"),
    ("swapper_pg_dir", "SYMBOL(swapper_pg_dir)", "num"),
    ("stext", "SYMBOL(_stext)", "num"),
)


def _evidence(img):
    ev = ffi.new("struct pgw_evidence *")
    lib.pgw_image_evidence(img, ev)
    pages = {"ram": ev.pages_ram, "dumped": ev.pages_dumped}
    for i, key in enumerate(ABSENCES):
        if i:
            pages[key.replace("-", "_")] = ev.pages_absent[i]
    return ev, {"complete": bool(ev.complete), "intact": bool(ev.intact),
                "marked_incomplete": bool(ev.marked_incomplete),
                "pages": pages, "zero_excluded": bool(ev.zero_excluded),
                "file_bytes_missing": ev.file_bytes_missing}


def _cpus(img, mode, enc):
    """Each CPU's registers, the ring its code segment says, and (once the
    mode is known) whether its CR3 is a PTI user copy, and of which."""
    cp = ffi.new("struct pgw_cpu **")
    pti = ffi.new("struct pgw_pti *")
    cpus = []
    for i in range(lib.pgw_image_cpus(img, cp)):
        c = cp[0][i]
        cpu = {"cpu": i, "registers": None}
        if c.has_cr:
            cpu["registers"] = {"cr0": c.cr0, "cr3": c.cr3, "cr4": c.cr4,
                                "efer": c.efer if c.has_efer else None}
        cpu["ring"] = ("unknown" if not c.has_cs else
                       "user" if c.cs_selector & 3 == 3 else "kernel")
        if mode != ffi.NULL and c.has_cr:
            lib.pgw_pti_check(img, mode, enc,
                              lib.pgw_cr3_table(mode, c.cr3, enc), pti)
            cpu["pti_user_root"] = bool(pti.is_user_root)
            if pti.is_user_root:
                cpu["pti_kernel_root"] = pti.kernel_table
        cpus.append(cpu)
    return cpus


def _vmcoreinfo(img, facts):
    if lib.pgw_vmcoreinfo_count(img) == 0:
        return None
    pa = ffi.new("uint64_t *")
    out = {"source": "note"}
    if lib.pgw_vmcoreinfo_in_memory(img, pa):
        out = {"source": "memory", "pa": pa[0]}
    out["lines"] = lib.pgw_vmcoreinfo_count(img)
    if facts.why[0] != b"\0":
        out["reason"] = cstr(facts.why)
    raw = {}
    v = ffi.new("uint64_t *")
    err = ffi.new("struct pgw_err *")
    for name, key, kind in VMCI_FIELDS:
        text = cstr(lib.pgw_vmcoreinfo_get(img, key.encode()))
        if text is None:
            continue
        raw[key] = text
        if kind == "str":
            out[name] = text
        elif kind == "bool":
            out[name] = True if text == "y" else None
        else:
            ok = lib.pgw_vmcoreinfo_number(img, key.encode(), v, err)
            out[name] = v[0] if ok == lib.PGW_OK else None
    out["raw"] = raw
    return out


def _candidates(facts):
    """vmcoreinfo_candidates and what goes with them: memory searched
    (else None alone)."""
    if facts.source not in (lib.PGW_FACTS_MEMORY, lib.PGW_FACTS_NONE):
        return {"vmcoreinfo_candidates": None}
    cands = []
    for i in range(facts.nlisted):
        c = facts.cand[i]
        d = {"pa": c.pa, "place": cstr(lib.pgw_vmci_place_key(c.place)),
             "valid": bool(c.valid), "chosen": bool(c.chosen),
             "kernel_root": c.kernel_root if c.valid else None}
        if c.valid:
            d["cpus_on_root"] = c.cpus_on_root
            d["cpus_map_text"] = c.cpus_map_text
        d["why"] = cstr(c.why)
        cands.append(d)
    return {"vmcoreinfo_candidates": cands,
            "vmcoreinfo_candidates_found": facts.ncandidates,
            "vmcoreinfo_conflict": bool(facts.conflict),
            "vmcoreinfo_choice": cstr(facts.choice) or None}


def _encryption(e):
    out = {"sme_mask": e.bits.enc or None,
           "sme_source": cstr(lib.pgw_enc_source_key(e.source)),
           "shared_mask": e.bits.shared or None,
           "shared_source": cstr(lib.pgw_enc_source_key(e.shared_source))}
    if e.examined:
        out["entries"] = e.examined
        out["agreed"] = e.agreed
    out["why"] = cstr(e.why)
    return out


def _names(img, mode, enc):
    """How the processes are named, read through the kernel's own root
    (the root info shows may be a CPU's), or why they are not."""
    req = ffi.new("struct pgw_root_request *")
    req.kernel = True
    req.enc = enc[0]
    root = ffi.new("struct pgw_root *")
    err = ffi.new("struct pgw_err *")
    tp = ffi.new("struct pgw_task **")
    np = ffi.new("size_t *")
    how = ffi.new("struct pgw_tasks_how *")
    st = lib.pgw_root_resolve(img, mode, req, root, err)
    if st == lib.PGW_OK:
        k = ffi.new("struct pgw_space *")
        k.img, k.mode, k.root, k.enc = img, mode, root.table, enc[0]
        if mode.root_select_bit:       # the kernel's is the upper
            k.root, k.root_upper = 0, root.table
        st = lib.pgw_linux_tasks_how(k, tp, np, how, err)
    try:
        tasks = [tp[0][i] for i in range(np[0])]
        processes = sum(1 for t in tasks if t.mm)
    finally:
        lib.pgw_linux_tasks_free(tp[0])
    if np[0]:
        why = cstr(how.why)[:480]
        if st != lib.PGW_OK:
            why += "; cut short: " + cstr(err.msg)[:500]
    else:
        why = cstr(err.msg)[:1000]
    return {"method": cstr(lib.pgw_tasks_method_key(how.method))
            if np[0] else None, "tasks": np[0], "processes": processes,
            "complete": st == lib.PGW_OK, "why": why}


def info(image):
    img = image._img
    req = ffi.new("struct pgw_space_request *")
    sp = ffi.new("struct pgw_space *")
    why = ffi.new("struct pgw_space_why *")
    err = ffi.new("struct pgw_err *")
    have_root = lib.pgw_space_open(img, req, sp, why, err) == lib.PGW_OK
    mode = why.mode.mode
    enc = ffi.addressof(why.enc.bits)
    ev, evidence = _evidence(img)
    rp = ffi.new("struct pgw_phys_range **")
    ranges = [{"pa": r.start, "end": r.start + r.size, "size": r.size}
              for r in (rp[0][i] for i in range(lib.pgw_image_ranges(img, rp)))]
    kp = ffi.new("char ***")
    vp = ffi.new("char ***")
    nf = lib.pgw_image_facts(img, kp, vp)
    out = {"image": image.path, "format": image.format,
           "elf_class": lib.pgw_image_class(img),
           "machine": cstr(lib.pgw_machine_name(lib.pgw_image_machine(img)))}
    out.update(evidence)
    out["facts"] = {cstr(kp[0][i]): cstr(vp[0][i]) for i in range(nf)}
    out["ranges"] = ranges
    out["prstatus"] = lib.pgw_image_prstatus_count(img)
    out["cpus"] = _cpus(img, mode, enc)
    out["vmcoreinfo"] = _vmcoreinfo(img, why.facts)
    out.update(_candidates(why.facts))
    out["encryption"] = _encryption(why.enc)
    out["mode"] = cstr(mode.name) if mode != ffi.NULL else None
    if mode != ffi.NULL:
        out["mode_reason"] = cstr(why.mode.why)
        if why.mode.conflict[0] != b"\0":
            out["mode_conflict"] = cstr(why.mode.conflict)
    out["root"] = why.root.table if have_root else None
    if have_root:
        out["root_reason"] = cstr(why.root.why)
    out["names"] = _names(img, mode, enc) if mode != ffi.NULL else None
    return out
