# The output contract (docs/output.md) as data: a schema per record type
# of each command, and a checker that holds every JSON line a command
# prints to it.  Sourced by contract.t (synthetic, hostile and corrupt
# images) and real-contract.t (the real dumps), after lib.sh.
#
# A schema names each field's type: addr (a "0x.." string, lower case, no
# leading zeros), end (an addr, or 2^64 spelled out), u64, bool, str, level,
# reason, absence, flags, effective, a nested record "obj:NAME", a list
# "arr:TYPE", an object of one value type "map:TYPE", and "null|TYPE".
# `req` fields must be there, `opt` ones may be, nothing else may.  Rules
# that tie fields together follow the schemas.

CONTRACT_JQ='
def S: {
  "translate.translation": {
    req: {type: "str", va: "null|addr", pa: "null|addr"},
    opt: {page_size: "u64", level: "level", flags: "flags",
          effective: "effective", pkey: "pkey", in_image: "bool",
          absence: "absence", reason: "reason",
          non_present: "obj:non_present", input: "str",
          levels: "arr:obj:level", symbol: "str", path: "str",
          path_truncated: "true", file_offset: "addr"}},
  "level": {
    req: {level: "level", table: "addr", index: "u64", entry_pa: "addr",
          entry: "null|addr"},
    opt: {flags: "flags", non_present: "obj:non_present", pkey: "pkey",
          reserved: "addr", absence: "absence"}},
  "non_present": {
    req: {kind: "np_kind"},
    opt: {pa: "addr", swap_type: "u64", swap_offset: "addr"}},
  "dump.region": {
    req: {type: "str", va: "addr", end: "end", size: "u64", region: "str",
          name: "str"}, opt: {}},
  "dump.map": {
    req: {type: "str", va: "addr", end: "end", size: "u64", pa: "addr",
          page_size: "u64", level: "level", entries: "u64", flags: "flags",
          effective: "effective", bytes_not_in_image: "u64", region: "str"},
    opt: {pkey: "pkey", same_frame: "true", stride: "u64", symbol: "str",
          path: "str", path_truncated: "true", file_offset: "addr"}},
  "dump.hole": {
    req: {type: "str", va: "addr", end: "end", size: "u64", level: "level",
          entries: "u64", reason: "reason", region: "str"},
    opt: {absence: "absence", entry_pa: "addr", entry: "addr",
          non_present: "obj:non_present"}},
  "dump.summary": {
    req: {type: "str", maps: "u64", mapped: "u64",
          mapped_by_page_size: "map:u64", holes: "u64", non_present: "u64",
          wx: "u64", wx_bytes: "u64", unknown_permissions_bytes: "u64",
          bytes_not_in_image: "u64", tables_not_in_image: "u64",
          entries: "u64", tables: "u64", leaves: "u64", complete: "bool"},
    opt: {reason: "reason"}},
  "regions.layout": {
    req: {type: "str", name: "str", desc: "str", why: "str"}, opt: {}},
  "regions.base": {
    req: {type: "str", name: "str", value: "addr", source: "base_source",
          why: "str"}, opt: {}},
  "regions.region": {
    req: {type: "str", va: "addr", end: "end", size: "u64", region: "str",
          name: "str", mapped: "u64", leaves: "u64"}, opt: {}},
  "regions.summary": {
    req: {type: "str", mapped: "u64", leaves: "u64", complete: "bool"},
    opt: {reason: "reason"}},
  "info.info": {
    req: {type: "str", image: "str", format: "str", elf_class: "u64",
          machine: "str", complete: "bool", intact: "bool",
          marked_incomplete: "bool", pages: "obj:pages",
          zero_excluded: "bool", file_bytes_missing: "u64", facts: "map:str",
          ranges: "arr:obj:range", prstatus: "u64", cpus: "arr:obj:cpu",
          vmcoreinfo: "null|obj:vmcoreinfo",
          vmcoreinfo_candidates: "null|arr:obj:vmci_candidate",
          encryption: "obj:encryption", mode: "null|str",
          root: "null|addr", names: "null|obj:info_names"},
    opt: {mode_reason: "str", mode_conflict: "str", root_reason: "str",
          vmcoreinfo_candidates_found: "u64", vmcoreinfo_conflict: "bool",
          vmcoreinfo_choice: "null|str"}},
  "info_names": {
    req: {method: "null|tasks_method", tasks: "u64", processes: "u64",
          complete: "bool", why: "str"}, opt: {}},
  "vmci_candidate": {
    req: {pa: "addr", place: "vmci_place", valid: "bool", chosen: "bool",
          kernel_root: "null|addr", why: "str"},
    opt: {cpus_on_root: "u64", cpus_map_text: "u64"}},
  "pages": {
    req: {ram: "u64", dumped: "u64", outside: "u64",
          excluded: "u64", truncated: "u64", missing: "u64",
          other_file: "u64", corrupt: "u64"}, opt: {}},
  "range": {req: {pa: "addr", end: "end", size: "u64"}, opt: {}},
  "cpu": {
    req: {cpu: "u64", registers: "null|obj:registers", ring: "ring"},
    opt: {pti_user_root: "bool", pti_kernel_root: "addr"}},
  "registers": {
    req: {cr0: "addr", cr3: "addr", cr4: "addr", efer: "null|addr"},
    opt: {}},
  "encryption": {
    req: {sme_mask: "null|addr", sme_source: "enc_source",
          shared_mask: "null|addr", shared_source: "enc_source",
          why: "str"},
    opt: {entries: "u64", agreed: "u64"}},
  "vmcoreinfo": {
    req: {source: "vmci_source", lines: "u64", raw: "map:str"},
    opt: {pa: "addr", reason: "str", osrelease: "str", page_size: "null|u64",
          kerneloffset: "null|addr", phys_base: "null|addr",
          pgtable_l5_enabled: "null|u64", config_x86_pae: "null|bool",
          max_physmem_bits: "null|u64", sme_mask: "null|addr",
          init_top_pgt: "null|addr", swapper_pg_dir: "null|addr",
          stext: "null|addr"}},
  "roots.root": {
    req: {type: "str", root: "addr", kind: "root_kind", why: "str",
          pid: "null|u64", comm: "null|str", pids: "null|arr:u64",
          cpus: "arr:u64", pti_user: "null|addr", user_bytes: "u64",
          user_leaves: "u64", user_access_leaves: "u64", user_tables: "u64",
          kernel_entries: "u64", kernel_same: "u64",
          kernel_mismatches: "u64", kernel_diffs: "arr:obj:kernel_diff",
          orphan: "null|bool"}, opt: {}},
  "kernel_diff": {
    req: {level: "level", index: "u64", entry_pa: "addr", entry: "addr",
          kernel_entry: "addr"}, opt: {}},
  "roots.orphan": {
    req: {type: "str", root: "addr", kind: "root_kind", suspicious: "bool",
          why: "str"}, opt: {}},
  "roots.unowned-task": {
    req: {type: "str", pid: "u64", comm: "str", task: "addr", mm: "addr",
          pgd: "null|addr", root: "null|addr", why: "str"}, opt: {}},
  "ps.task": {
    req: {type: "str", pid: "u64", tgid: "u64", ppid: "null|u64",
          comm: "str", state: "null|task_state", state_value: "null|u64",
          cpu: "null|u64", running: "null|bool",
          current_cpu: "null|u64", current_by: "null|current_by",
          kthread: "bool",
          task: "addr", mm: "null|addr", root: "null|addr",
          start_time: "null|u64"}, opt: {why: "str"}},
  "ps.summary": {
    req: {type: "str", tasks: "u64", processes: "u64",
          kernel_threads: "u64", method: "null|tasks_method",
          threads: "bool", cpu_registers: "u64", complete: "bool"},
    opt: {method_why: "str", why: "str"}},
  "roots.names": {
    req: {type: "str", complete: "bool", tasks: "u64", processes: "u64",
          roots_named: "u64", method: "null|tasks_method"},
    opt: {why: "str", method_why: "str"}},
  "roots.summary": {
    req: {type: "str", roots: "u64", kinds: "map:u64", orphans: "null|u64",
          suspicious_orphans: "null|u64", unowned_tasks: "null|u64",
          pages: "u64", pages_scanned: "u64", pages_absent: "u64",
          freed_slots: "u64", complete: "bool"},
    opt: {reason: "reason", why: "str"}},
  "read.data": {
    req: {type: "str", va: "null|addr", pa: "addr", size: "u64", hex: "str"},
    opt: {protnone: "true"}},
  "read.gap": {
    req: {type: "str", va: "null|addr", end: "end", size: "u64",
          reason: "reason"},
    opt: {pa: "addr", level: "level", absence: "absence"}},
  "ptov.mapping": {
    req: {type: "str", pa: "null|addr", va: "null|addr"},
    opt: {root: "null|addr", pid: "null|u64", comm: "null|str",
          kind: "root_kind", page_size: "u64", level: "level",
          flags: "flags", effective: "effective", same_frame_pages: "u64",
          input: "str", reason: "reason", protnone: "true", symbol: "str",
          path: "str", path_truncated: "true", file_offset: "addr"}},
  "check.finding": {
    req: {type: "str", rule: "rule", severity: "severity", va: "null|addr",
          end: "null|end", size: "null|u64", root: "null|addr",
          pid: "null|u64", comm: "null|str", evidence: "arr:obj:evidence",
          why: "str"},
    opt: {symbol: "str", path: "str", path_truncated: "true",
          file_offset: "addr"}},
  "evidence": {
    req: {level: "level", table: "addr", index: "u64", entry_pa: "addr",
          entry: "addr"}, opt: {}},
  "check.summary": {
    req: {type: "str", severity: "severity", roots: "u64", findings: "u64",
          by_severity: "map:u64", by_rule: "map:u64",
          kernel_wx_pages: "null|u64", unchecked: "arr:obj:unchecked",
          tables_not_in_image: "u64", complete: "bool"},
    opt: {reason: "reason"}},
  "unchecked": {req: {rule: "rule", why: "str"}, opt: {}},
  "diff.added": {
    req: {type: "str", va: "addr", end: "end", size: "u64", a: "null",
          b: "obj:diff_side", changes: "arr:change"}, opt: {}},
  "diff.removed": {
    req: {type: "str", va: "addr", end: "end", size: "u64",
          a: "obj:diff_side", b: "null", changes: "arr:change"}, opt: {}},
  "diff.changed": {
    req: {type: "str", va: "addr", end: "end", size: "u64",
          a: "obj:diff_side", b: "obj:diff_side", changes: "arr:change"},
    opt: {}},
  "diff.uncompared": {
    req: {type: "str", va: "addr", end: "end", size: "u64",
          a: "null|obj:diff_side", b: "null|obj:diff_side",
          changes: "arr:change", reason: "reason"}, opt: {}},
  "diff_side": {
    req: {pa: "null|addr"},
    opt: {page_size: "u64", level: "level", flags: "flags",
          effective: "effective", same_frame: "true", absence: "absence"}},
  "diff.summary": {
    req: {type: "str", root_a: "addr", root_b: "addr", ranges: "u64",
          added: "u64", removed: "u64", changed: "u64", uncompared: "u64",
          same: "u64", data_compared: "null|u64",
          table_not_in_image: "u64", complete: "bool"},
    opt: {reason: "reason"}},
  "maps.process": {
    req: {type: "str", pid: "u64", comm: "str", mm: "addr",
          vmas: "null|u64", complete: "bool"},
    opt: {reason: "reason", why: "str"}},
  "maps.vma": {
    req: {type: "str", pid: "u64", comm: "str", va: "addr", end: "end",
          size: "u64", perms: "str", pgoff: "u64", dev: "str",
          inode: "u64", naming: "naming", path: "null|str",
          vm_flags: "addr", vm_flag_names: "arr:str", vma: "addr",
          file: "null|addr"},
    opt: {why: "str", kernel_page_size: "null|u64", rss: "u64",
          present: "u64", protnone: "u64", swap: "u64",
          other_non_present: "u64", empty: "u64", anon_huge: "u64",
          hugetlb: "u64", bytes_not_in_image: "u64",
          table_not_in_image: "u64", measured: "bool"}},
  "maps.page": {
    req: {type: "str", pid: "u64", comm: "str", va: "addr", end: "end",
          size: "u64", state: "page_state", pa: "null|addr"},
    opt: {page_size: "u64", in_image: "bool", special: "bool",
          swap_type: "u64", swap_offset: "addr"}},
  "maps.summary": {
    req: {type: "str", processes: "u64", vmas: "u64",
          processes_incomplete: "u64", complete: "bool"},
    opt: {reason: "reason", why: "str"}},
  "search.hit": {
    req: {type: "str", pa: "addr", va: "null|addr", root: "null|addr",
          pid: "null|u64", comm: "null|str", pattern: "str", size: "u64",
          hex: "str", context_start: "addr", context: "str"},
    opt: {same_frame_pages: "u64", page_size: "u64", symbol: "str",
          path: "str", path_truncated: "true", file_offset: "addr"}},
  "search.summary": {
    req: {type: "str", patterns: "u64", hits: "u64", listed: "u64",
          bytes_searched: "u64", bytes_not_in_image: "u64",
          not_in_image: "obj:not_in_image", tables_not_in_image: "u64",
          complete: "bool"},
    opt: {reason: "reason"}},
  "not_in_image": {
    req: {outside: "u64", excluded: "u64", truncated: "u64", missing: "u64",
          other_file: "u64", corrupt: "u64"}, opt: {}}
};

def words: {
  level: ["pgd", "p4d", "pud", "pmd", "pte"],
  reason: ["not-present", "non-canonical", "beyond-address-space",
           "reserved-bits", "bad-leaf", "table-not-in-image",
           "table-beyond-memory", "cycle", "data-not-in-image",
           "read-error", "not-an-address", "budget", "corrupt",
           "task-list-unread", "vmcoreinfo-conflict", "hit-limit"],
  absence: ["outside", "excluded", "truncated", "missing", "other-file",
            "corrupt"],
  flags: ["present", "rw", "user", "pwt", "pcd", "accessed", "dirty", "ps",
          "global", "pat", "nx", "enc", "shared", "pxn", "uxn", "cont"],
  effective: ["rw", "user", "nx", "pxn", "uxn"],
  np_kind: ["protnone", "swap", "migration", "device", "hwpoison", "other",
            "swap-layout-unknown"],
  ring: ["user", "kernel", "unknown"],
  base_source: ["vmcoreinfo", "cpu", "option", "inferred", "layout",
                "default"],
  vmci_source: ["note", "memory"],
  vmci_place: ["note", "data"],
  tasks_method: ["vmcoreinfo+btf", "scanned-kallsyms+btf",
                 "inferred-layout"],
  task_state: ["RU", "IN", "UN", "ID", "ST", "TR", "ZO", "DE", "??"],
  current_by: ["stack", "cr3", "user-pc"],
  enc_source: ["none", "option", "vmcoreinfo", "inferred"],
  root_kind: ["kernel", "process", "empty", "tables-only", "supervisor-only",
              "kernel-image", "shared-tables", "bad-user-half",
              "foreign-kernel-half", "unverified"],
  rule: ["wx", "user-kernel", "kernel-half-mismatch", "text-writable-alias",
         "pt-writable", "reserved-bits", "beyond-ram", "orphan-root",
         "unowned-task", "no-nx", "outside-vma", "beyond-vma", "anon-exec",
         "deleted-exe"],
  severity: ["info", "low", "medium", "high"],
  change: ["frame", "permissions", "page_size", "attributes", "data"],
  naming: ["path", "named", "none", "unknown"],
  page_state: ["present", "protnone", "swap", "other-non-present", "empty",
               "table-not-in-image"]
};

def errs($t; $p):
  if ($t | startswith("null|")) then
    (if . == null then [] else errs($t[5:]; $p) end)
  elif ($t | startswith("arr:")) then
    (if type == "array" then ([.[] | errs($t[4:]; $p + "[]")] | add // [])
     else ["\($p): not an array"] end)
  elif ($t | startswith("map:")) then
    (if type == "object" then
       ([to_entries[] | .value | errs($t[4:]; $p + ".*")] | add // [])
     else ["\($p): not an object"] end)
  elif ($t | startswith("obj:")) then
    (S[$t[4:]] as $s |
     if type != "object" then ["\($p): not an object"] else
       (. as $o |
        [$s.req | keys_unsorted[] | . as $k |
         select($o | has($k) | not) | "\($p).\($k): missing"] +
        [$o | keys_unsorted[] | . as $k |
         select(($s.req | has($k)) or ($s.opt | has($k)) | not) |
         "\($p).\($k): not a field of the contract"] +
        ([$o | to_entries[] | .key as $k |
          ($s.req[$k] // $s.opt[$k]) as $ft | select($ft != null) |
          .value | errs($ft; $p + "." + $k)] | add // []))
     end)
  elif $t == "null" then
    (if . == null then [] else ["\($p): not null"] end)
  elif $t == "addr" then
    (if type == "string" and test("^0x(0|[1-9a-f][0-9a-f]*)$") then []
     else ["\($p): not an address: \(tojson)"] end)
  elif $t == "end" then
    (if type == "string" and
        (test("^0x(0|[1-9a-f][0-9a-f]{0,15})$") or
         . == "0x10000000000000000") then []
     else ["\($p): not an end: \(tojson)"] end)
  elif $t == "u64" then
    (if type == "number" and . >= 0 and . == floor then []
     else ["\($p): not a count: \(tojson)"] end)
  elif $t == "bool" then
    (if type == "boolean" then [] else ["\($p): not a bool"] end)
  elif $t == "true" then
    (if . == true then [] else ["\($p): only ever true"] end)
  elif $t == "pkey" then
    (if type == "number" and . >= 1 and . <= 15 and . == floor then []
     else ["\($p): not a protection key (1-15; 0 is left out): \(tojson)"] end)
  elif $t == "str" then
    (if type == "string" then [] else ["\($p): not a string"] end)
  elif (words | has($t)) then
    (if ($t == "flags" or $t == "effective") then
       (if type == "array" and all(.[]; type == "string") then
          [.[] as $w | select(words[$t] | index($w) | not) |
           "\($p): \($w) is not a word of \($t)"]
        else ["\($p): not a list"] end)
     elif type == "string" and (. as $v | words[$t] | index($v)) then []
     else ["\($p): \(tojson) is not a word of \($t)"] end)
  else ["\($p): no type \($t)"] end;

# Rules that tie fields together.
def rules($cmd):
  . as $r |
  if $cmd == "translate" then
    [ (if .pa == null then
         (if has("reason") then empty else "pa null without a reason" end),
         (if has("page_size") or has("in_image") or has("flags")
          then "pa null with page_size, in_image or flags" else empty end)
       else
         (if has("reason") then "a translation with a reason" else empty end),
         (if (has("page_size") and has("level") and has("flags") and
              has("effective") and has("in_image")) then empty
          else "a translation without page_size, level, flags, effective or in_image" end)
       end),
      (if .reason == "not-an-address" then
         (if .va == null and has("input") and (has("level") | not) then empty
          else "not-an-address: va null, input, no level" end)
       else
         (if .va != null and has("level") and (has("input") | not) then empty
          else "an address record without va or level, or with input" end)
       end),
      (if (has("absence")) != ((.reason == "table-not-in-image") or
           (.reason == "table-beyond-memory") or (.in_image == false))
       then "absence exactly for a table not in the image or data not in it"
       else empty end),
      (if .reason == "budget" or .reason == "cycle" or
          .reason == "data-not-in-image"
       then "a reason translate never gives: \(.reason)" else empty end),
      (if has("non_present") and .reason != "not-present"
       then "non_present without not-present" else empty end),
      (if has("pkey") and .pa == null then "a pkey without a translation"
       else empty end) ]
  elif $cmd == "dump" and .type == "hole" then
    [ (if has("absence") != ((.reason == "table-not-in-image") or
                             (.reason == "table-beyond-memory"))
       then "a hole with absence exactly when its table is not in the image"
       else empty end),
      (if .reason == "budget" or .reason == "not-an-address" or
          .reason == "data-not-in-image" or .reason == "read-error"
       then "a reason a hole never has: \(.reason)" else empty end),
      (if has("entry") != has("entry_pa") then "entry and entry_pa together"
       else empty end) ]
  elif $cmd == "dump" and .type == "map" then
    [ (if .bytes_not_in_image > .size then "more bytes not in image than mapped"
       else empty end) ]
  elif $cmd == "roots" and .type == "root" then
    [ (if (.pid == null) != (.comm == null) then "pid and comm null together"
       else empty end),
      (if (.pids == null) != (.orphan == null)
       then "pids and orphan null together (no task list)" else empty end),
      (if .pid != null and ([.pids[] | select(. == $r.pid)] | length) == 0
       then "pid not among pids" else empty end),
      (if (.kernel_diffs | length) > .kernel_mismatches
       then "more kernel_diffs than kernel_mismatches" else empty end),
      (if .kernel_same > .kernel_entries
       then "more kernel entries the same than compared" else empty end) ]
  elif $cmd == "roots" and .type == "names" then
    [ (if .complete == has("why") then "names: complete false exactly with why"
       else empty end),
      (if .processes > .tasks then "more processes than tasks" else empty end) ]
  elif $cmd == "read" and .type == "data" then
    [ (if .size < 1 or .size > 4096 then "a data piece of 1 to 4096 bytes"
       else empty end),
      (if (.hex | test("^([0-9a-f][0-9a-f])*$") | not) or
          (.hex | length) != 2 * .size
       then "hex: two lower-case digits per byte" else empty end) ]
  elif $cmd == "read" and .type == "gap" then
    [ (if .size < 1 then "an empty gap" else empty end),
      (if has("absence") != ((.reason == "data-not-in-image") or
                             (.reason == "table-not-in-image") or
                             (.reason == "table-beyond-memory"))
       then "a gap with absence exactly when a page is not in the image"
       else empty end),
      (if .va == null and (has("pa") | not) then "a gap without va or pa"
       else empty end),
      (if .reason == "budget" or .reason == "not-an-address" or
          .reason == "cycle" or .reason == "read-error"
       then "a reason a gap never has: \(.reason)" else empty end) ]
  elif $cmd == "ptov" then
    [ (if .reason == "not-an-address" then
         (if .pa == null and .va == null and has("input") then empty
          else "not-an-address: pa and va null, input" end)
       elif has("reason") or has("input") then "a reason other than not-an-address"
       elif .pa == null then "pa null without not-an-address"
       elif .va == null then
         (if .root == null and .pid == null and .comm == null and
             (has("page_size") | not) and (has("flags") | not)
          then empty else "va null: root, pid, comm null and no mapping" end)
       else
         (if .root != null and has("page_size") and has("level") and
             has("flags") and has("effective") then empty
          else "a mapping without root, page_size, level, flags or effective" end)
       end),
      (if (.pid == null) != (.comm == null) then "pid and comm null together"
       else empty end),
      (if has("same_frame_pages") and .same_frame_pages < 2
       then "same_frame_pages only when more than 1" else empty end) ]
  elif $cmd == "search" and .type == "hit" then
    [ (if (.pid == null) != (.comm == null) then "pid and comm null together"
       else empty end),
      (if (.va == null) != (.root == null)
       then "va and root null together (--phys)" else empty end),
      (if .pid != null and .root == null then "a pid without a root"
       else empty end),
      (if .size < 1 then "an empty match" else empty end),
      (if (.hex | test("^([0-9a-f][0-9a-f])*$") | not) or
          (.hex | length) != 2 * .size
       then "hex: two lower-case digits per byte matched" else empty end),
      (if (.pattern | test("^(string|wide|hex|regex|yara):.")) | not
       then "pattern: kind:text" else empty end),
      (if has("same_frame_pages") and .same_frame_pages < 2
       then "same_frame_pages only when more than 1" else empty end),
      (if has("same_frame_pages") != has("page_size")
       then "same_frame_pages and page_size together" else empty end) ]
  elif $cmd == "check" and .type == "finding" then
    [ (if ((.va == null) != (.end == null)) or ((.va == null) != (.size == null))
       then "va, end and size null together" else empty end),
      (if (.pid == null) != (.comm == null) then "pid and comm null together"
       else empty end),
      (if .va != null and (.rule == "orphan-root" or .rule == "unowned-task"
                           or .rule == "no-nx")
       then "a cross-view or no-nx finding has no range" else empty end),
      (if .va == null and (.evidence | length) > 0
       then "evidence without a range" else empty end) ]
  elif $cmd == "diff" and .type != "summary" then
    [ (if (.type == "changed") != ((.changes | length) > 0)
       then "changes exactly in a changed range" else empty end),
      (if (.type == "uncompared") != has("reason")
       then "a reason exactly in an uncompared range" else empty end),
      (if has("reason") and ([.reason] | inside(["table-not-in-image", "data-not-in-image"]) | not)
       then "an uncompared reason: table-not-in-image or data-not-in-image"
       else empty end) ]
  elif $cmd == "maps" and .type == "vma" then
    [ (if (.perms | test("^[r-][w-][x-][ps]$") | not)
       then "perms: rwx and p or s" else empty end),
      (if (.dev | test("^[0-9a-f]{2,}:[0-9a-f]{2,}$") | not)
       then "dev: MAJOR:MINOR in hex" else empty end),
      (if (.naming == "path" or .naming == "named") == (.path == null)
       then "a path exactly when the name is a path or a kernel name"
       else empty end),
      (if (.naming == "unknown") != has("why")
       then "why exactly when the name is unknown" else empty end),
      (if (.file == null) and (.naming == "path")
       then "a path without a file" else empty end),
      (if ([.vm_flag_names[] | select(test("^([a-z]{2}|[?][?])$") | not)]
           | length) > 0
       then "vm_flag_names: two-letter mnemonics" else empty end),
      (if has("rss") and (.present + .protnone + .swap + .other_non_present
                          + .empty + .table_not_in_image != .size)
       then "a measured VMA: its bytes add up to its size" else empty end),
      (if has("rss") and .rss > .present + .protnone
       then "rss within present and protnone" else empty end) ]
  elif $cmd == "maps" and .type == "page" then
    [ (if (.pa != null) != ([.state] | inside(["present", "protnone"]))
       then "a pa exactly for a present or protnone page" else empty end),
      (if has("in_image") != (.state == "present")
       then "in_image exactly for a present page" else empty end),
      (if has("swap_type") != (.state == "swap")
       then "swap_type exactly for a swap entry" else empty end) ]
  elif $cmd == "maps" and .type == "process" then
    [ (if .complete == has("reason") or has("reason") != has("why")
       then "process: complete false exactly with reason and why"
       else empty end) ]
  elif $cmd == "maps" and .type == "summary" then
    [ (if .complete == has("reason") or has("reason") != has("why")
       then "summary: complete false exactly with reason and why"
       else empty end),
      (if .processes_incomplete > .processes
       then "more processes incomplete than listed" else empty end) ]
  elif .type == "summary" then
    [ (if .complete == has("reason") then "complete false exactly with a reason"
       else empty end),
      (if $cmd == "check" and .findings != ([.by_severity[]] | add)
       then "check: findings do not add up by severity" else empty end),
      (if $cmd == "roots" and has("reason") and
          ([.reason] | inside(["budget", "vmcoreinfo-conflict"]) | not)
       then "a roots summary reason is budget or vmcoreinfo-conflict"
       else empty end),
      (if $cmd == "search" and .listed > .hits
       then "search: more hits listed than found" else empty end),
      (if $cmd == "search" and
          .bytes_not_in_image != ([.not_in_image[]] | add)
       then "search: bytes_not_in_image is not the sum of not_in_image"
       else empty end),
      (if $cmd == "search" and .reason == "hit-limit" and .listed >= .hits
       then "search: hit-limit while every hit was listed" else empty end),
      (if $cmd != "search" and .reason == "hit-limit"
       then "hit-limit belongs to search alone" else empty end),
      (if $cmd == "roots" and has("reason") != has("why")
       then "a roots summary: reason and why together" else empty end),
      (if $cmd == "roots" and
          ([.kinds | keys[] | select(. as $k | words.root_kind | index($k) | not)]
           | length) > 0
       then "kinds: not root kinds" else empty end),
      (if has("reason") and ([.reason] | inside(["budget", "table-not-in-image", "data-not-in-image", "read-error"]) | not) and
          ($cmd != "check" or ([.reason] | inside(["task-list-unread", "vmcoreinfo-conflict"]) | not)) and
          ($cmd != "roots" or .reason != "vmcoreinfo-conflict") and
          ($cmd != "search" or .reason != "hit-limit")
       then "a summary reason is budget, table-not-in-image, data-not-in-image or read-error (check: task-list-unread, vmcoreinfo-conflict; roots: vmcoreinfo-conflict; search: hit-limit)"
       else empty end) ]
  elif $cmd == "info" then
    [ (if .pages.dumped + .pages.outside + .pages.excluded + .pages.truncated +
          .pages.missing + .pages.other_file + .pages.corrupt != .pages.ram
       then "pages do not add up to ram" else empty end),
      (if .complete != (.pages.dumped == .pages.ram)
       then "complete exactly when every page is dumped" else empty end),
      (if (.mode == null) != (has("mode_reason") | not)
       then "mode_reason exactly with a mode" else empty end),
      (if (.root == null) != (has("root_reason") | not)
       then "root_reason exactly with a root" else empty end),
      (.encryption |
       (if .sme_source == "none" and .sme_mask != null
        then "a C-bit with no source" else empty end),
       (if .sme_source == "inferred" and .sme_mask == null
        then "an inferred C-bit that is null" else empty end),
       (if .shared_source == "none" and .shared_mask != null
        then "a shared bit with no source" else empty end),
       (if [.shared_source] | inside(["none", "option"]) | not
        then "a shared bit from \(.shared_source): only an option gives one"
        else empty end),
       (if has("entries") != has("agreed")
        then "entries and agreed together" else empty end),
       (if has("agreed") and .agreed > .entries
        then "more entries agreed than examined" else empty end),
       (if .sme_mask != null and .sme_mask == .shared_mask
        then "the C-bit and the shared bit the same" else empty end)) ]
  else [] end
  | map("\($r.type // "?"): \(.)");

def nperrs:
  [ .. | objects | select(has("non_present")) | .non_present |
    select(type == "object" and has("kind") and (.kind | type) == "string") |
    if .kind == "protnone" then
      (if has("pa") and (has("swap_type") | not) then empty
       else "protnone: pa only" end)
    elif .kind == "other" then
      (if (has("pa") or has("swap_type")) then "other: nothing more"
       else empty end)
    else
      (if has("swap_type") and has("swap_offset") and (has("pa") | not)
       then empty else "\(.kind): swap_type and swap_offset" end)
    end ];

(try fromjson catch null) as $r |
if $r == null or ($r | type) != "object" then "not a JSON object: \(.[:120])"
elif ($r | keys_unsorted[0]) != "type" then "\"type\" is not first: \(.[:120])"
elif (S | has("\($cmd).\($r.type)") | not) then
  "\($cmd) prints no record of type \($r.type)"
else
  ($r | errs("obj:\($cmd).\(.type)"; .type) + rules($cmd) + nperrs)[]
end
'

# The program's main part reads one line of output (-R) and prints its
# errors, one per line.
# contract_check CMD FILE: hold every line of FILE (pgwalk CMD
# --format=json output) to the contract; sets $cerr to the first errors
# and $nrec to the line count.  Returns 0 when every line holds.
contract_check() {
	nrec=$(grep -c '' "$2")
	cerr=$(jq -R -r --arg cmd "$1" "$CONTRACT_JQ" "$2" 2>&1 | head -5)
	# Bytes outside printable ASCII are escaped (\u00NN): none is raw.
	if LC_ALL=C grep -q '[^ -~]' "$2"; then
		cerr="$cerr${cerr:+
}a byte outside printable ASCII: $(LC_ALL=C grep -n -m1 '[^ -~]' "$2" | cut -c1-80)"
	fi
	[ -z "$cerr" ] && [ "$nrec" -gt 0 ]
}

# contract CMD DESC PGWALK-ARGS...: run pgwalk CMD --format=json ARGS
# (stdin passed on) and hold its output to the contract; one test.  The
# exit status must be one the contract has (0, 1, 2, 3, 4).
contract() {
	_cmd=$1 _desc=$2
	shift 2
	"$PGWALK" "$_cmd" --format=json "$@" >"$TMP/contract.json" 2>"$TMP/contract.err"
	_rc=$?
	case $_rc in
	0|1|2|3|4) ;;
	*) ok 1 "$_cmd $_desc: exit $_rc"
	   head -2 "$TMP/contract.err" | sed 's/^/#   /'
	   return ;;
	esac
	if contract_check "$_cmd" "$TMP/contract.json"; then
		ok 0 "$_cmd $_desc: $nrec records per the contract (exit $_rc)"
	else
		ok 1 "$_cmd $_desc: $nrec records per the contract (exit $_rc)"
		printf '%s\n' "$cerr" | sed 's/^/#   /'
	fi
}
