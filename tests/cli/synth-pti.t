#!/bin/sh
# PTI: a CPU caught in user mode has the user copy of its top table in
# CR3.  info says so and names the kernel root; --kernel-root walks it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 18

spec=$SPECS/x86-64-pti.spec
"$MKIMAGE" -e "$TMP/pti.elf" -x "$TMP/kernel.exp" "$spec"
"$MKIMAGE" -x "$TMP/user.exp" -R 0x101000 "$spec"
img=$TMP/pti.elf

run "$PGWALK" info "$img"
like '^  cpu1: .*CR3=0x101003 .*user mode, PTI user root \(kernel root 0x100000\)$' \
	"info: CPU 1's CR3 is a PTI user root, paired with 0x100000"
unlike '^  cpu0: .*PTI' "info: CPU 0's CR3 is the kernel root, no PTI note"
run "$PGWALK" info --format=json "$img"
like '\{"cpu":1,"registers":\{[^}]*\},"ring":"user","pti_user_root":true,"pti_kernel_root":"0x100000"\}' \
	"info JSON: pti_user_root and pti_kernel_root for CPU 1"
like '\{"cpu":0,"registers":\{[^}]*\},"ring":"kernel","pti_user_root":false\}' \
	"info JSON: CPU 0 is not"

expect_tsv "--cpu=1: the user copy, as built" "$TMP/user.exp" --cpu=1 "$img"
expect_tsv "--cpu=1 --kernel-root: the kernel half, as built" \
	"$TMP/kernel.exp" --cpu=1 --kernel-root "$img"
expect_tsv "--cr3=0x101000 --kernel-root: the same" "$TMP/kernel.exp" \
	--cr3=0x101000 --kernel-root "$img"

run "$PGWALK" translate --format=tsv --cpu=1 "$img" 0xffff888000001000
is "$(printf '%s\n' "$out" | sed 1d | cut -f1-4,8)" \
	"$(printf '0xffff888000001000\t-\t-\tpgd\tnot-present')" \
	"the direct map is absent from the user copy"
run "$PGWALK" translate -v --cpu=1 --kernel-root "$img" 0xffff888000001000
out=$err
like '^pgwalk: root 0x100000 \(CPU 1 CR3 0x101003 from the image.s notes, PTI kernel half 0x100000\)$' \
	"-v says on stderr that the kernel half was used"
run "$PGWALK" translate -v --cpu=1 --kernel-root "$img" 0xffff888000001000
like '^VIRTUAL 0xffff888000001000 -> PHYSICAL 0x1000 ' \
	"... and the direct map translates through it"
run "$PGWALK" translate --format=json --cpu=1 "$img" 0x400000
like '"pa":"0x3100000".*"effective":\["user"\]' \
	"user page through the user copy: executable"
run "$PGWALK" translate --format=json --cpu=1 --kernel-root "$img" 0x400000
like '"pa":"0x3100000".*"effective":\["user","nx"\]' \
	"... through the kernel copy: NX from its top-level entry"

run "$PGWALK" translate --cpu=0 --kernel-root "$img" 0x400000
one_error "--kernel-root on a CPU whose CR3 is not a user copy" 64

# PAE: the same pairing, counted through the page directories below the
# PDPT's kernel entries.
spec=$SPECS/pae-pti.spec
"$MKIMAGE" -e "$TMP/pae.elf" -x "$TMP/pae-kernel.exp" "$spec"
"$MKIMAGE" -x "$TMP/pae-user.exp" -R 0x101000 "$spec"
run "$PGWALK" info "$TMP/pae.elf"
like '^mode: +pae ' "pae: detected"
like '^  cpu1: .*user mode, PTI user root \(kernel root 0x100000\)$' \
	"pae: info pairs CPU 1's user PDPT with the kernel one"
unlike '^  cpu0: .*PTI' "pae: CPU 0 is on the kernel PDPT"
expect_tsv "pae --cpu=1: the user copy, as built" "$TMP/pae-user.exp" \
	--cpu=1 "$TMP/pae.elf"
expect_tsv "pae --cpu=1 --kernel-root: the kernel half, as built" \
	"$TMP/pae-kernel.exp" --cpu=1 --kernel-root "$TMP/pae.elf"

done_testing
