#!/bin/sh
# VMCOREINFO of every era, and more than one in memory, on the synthetic
# kernel of tests/tools/pgw-mkkernel: a NUMBER() written in hex (6.12's
# NUMBER(VMALLOC_START)=0x...) is valid; a second valid candidate naming
# another kernel root (0x7b0000, at 0x7a0000) next to the kernel's own
# (root 0x1000, at 0x7f0000) is listed by `info`, the choice is made by
# the CPUs' evidence and said with why, never silently, and
# --vmcoreinfo=PA chooses.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
MK=$PGW_TOOLS/pgw-mkkernel
[ -x "$MK" ] || skip "pgw-mkkernel is not built (run through make check)"
plan 16

mk() { "$MK" "$@" || bail "pgw-mkkernel $* failed"; }

# 6.12's hex-valued NUMBER(): the text is the kernel's, adopted.
mk --raw --hex-vmcoreinfo "$TMP/hex.raw"
run "$PGWALK" info "$TMP/hex.raw"
like '^vmcoreinfo: +13 lines \(found in memory at 0x7f0000\)$' \
	"NUMBER(VMALLOC_START)=0x... (hex, as 6.12 writes it): the text is valid and adopted"
like '^root: +0x1000 \(VMCOREINFO SYMBOL\(init_top_pgt\)' \
	"... and its root is the kernel's"

# Two valid candidates, no CPU to tell them apart: both listed, the
# conflict said in the record and on stderr of every other command.
mk --raw --second-vmcoreinfo "$TMP/two.raw"
run "$PGWALK" info "$TMP/two.raw"
is "$(printf '%s\n' "$out" | grep -c '^  candidate 0x7[af]0000 data ')" 2 \
	"info lists both candidates"
like '^  candidate 0x7a0000 data (CHOSEN|valid), root 0x7b0000, CPUs on it 0, mapping its text 0: 5 lines' \
	"... the second with its own root 0x7b0000"
like '^  choice +CONFLICT: 1 valid candidate names another kernel root than 0x[17]b?0000; .*--vmcoreinfo=PA chooses another$' \
	"... and the choice says CONFLICT, how it chose, and how to choose"
run "$PGWALK" translate "$TMP/two.raw" 0xffffffff80200000
out=$err
like '^pgwalk: warning: VMCOREINFO in memory: CONFLICT: ' \
	"translate warns on stderr: a conflicting candidate is never ignored silently"

# A CPU runs on the kernel's root: evidence chooses it.
mk --no-note --second-vmcoreinfo --cpu-cr3=0x1000 "$TMP/two.elf"
run "$PGWALK" info "$TMP/two.elf"
like '^  candidate 0x7f0000 data CHOSEN, root 0x1000, CPUs on it 1, mapping its text 0: 12 lines' \
	"ELF with CPU 0 on root 0x1000: its VMCOREINFO (0x7f0000) is chosen"
like '^  candidate 0x7a0000 data valid, root 0x7b0000, CPUs on it 0, mapping its text 1: ' \
	"... the other is listed: no CPU on its root, CPU 0's root maps its _stext"
like '^  choice +CONFLICT: .*0x7f0000 \(data\) chosen: 1 CPU on its root 0x1000' \
	"... and the choice says it was the CPU"
run "$PGWALK" roots "$TMP/two.elf"
like '^0x601000 +process +1 init ' "roots names the processes from the chosen kernel's facts"

# --vmcoreinfo=PA: the user's choice, said.
run "$PGWALK" info --vmcoreinfo=0x7a0000 "$TMP/two.elf"
like '^root: +0x7b0000 \(VMCOREINFO SYMBOL\(init_top_pgt\)=0xffffffff807b0000' \
	"--vmcoreinfo=0x7a0000 adopts the other candidate: root 0x7b0000"
like '^  choice +CONFLICT: .*0x7a0000 chosen by --vmcoreinfo$' \
	"... and says it was chosen by --vmcoreinfo"
run "$PGWALK" info --vmcoreinfo=0x7a1000 "$TMP/two.elf"
out=$err
is "$rc" 3 "--vmcoreinfo at an address no candidate begins at: exit 3"
like 'vmcoreinfo=0x7a1000: no candidate begins there' "... saying so"

# JSON: the candidates, the choice and the conflict.
run "$PGWALK" info --format=json "$TMP/two.elf"
is "$(printf '%s\n' "$out" | jq -c '[.vmcoreinfo_candidates[] | [.pa, .valid, .chosen, .kernel_root, .cpus_on_root]], .vmcoreinfo_conflict' | tr '\n' ' ')" \
	'[["0x7a0000",true,false,"0x7b0000",0],["0x7f0000",true,true,"0x1000",1]] true ' \
	"JSON: both candidates, which was chosen, their roots and evidence, the conflict"

# The note of one kernel and its data page agree: no conflict, no warning.
run "$PGWALK" translate "$TMP/hex.raw" 0xffffffff80200000
is "$rc:$err" "0:" "one kernel's VMCOREINFO alone: no warning"
