#!/bin/sh
# `pgwalk regions` on the real dumps against what the guests said:
#  - x86-64: page_offset_base, vmalloc_base and vmemmap_base (randomized by
#    KASLR, inferred from the page tables) equal the PGWALK-KVAR values the
#    guest read from its own memory (console.log); every mapping of the
#    kernel root lies in a named region (nothing mapped in "unused");
#  - i386: the vmalloc area's size equals the guest's VmallocTotal and the
#    direct map ends where the dump's README says.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 20   # 7 per x86-64 dump, 3 per i386 dump

# base NAME: value of a base record in $out (regions --format=json).
base() {
	printf '%s\n' "$out" | awk -v n="$1" '
	index($0, "\"type\":\"base\"") && index($0, "\"name\":\"" n "\"") {
		match($0, /"value":"0x[0-9a-f]+"/)
		print substr($0, RSTART + 9, RLENGTH - 10)
	}'
}
# kvar DUMP NAME: the guest's value from console.log.
kvar() {
	sed -n "s/.*PGWALK-KVAR name=$2 .*value=\(0x[0-9a-f]*\).*/\1/p" \
		"$SHARED/$1/console.log" | tr -d '\r' | head -1
}

for dump in x64-4l-a x64-5l-a; do
	elf=$UNPACKED/$dump/vmcore.elf
	run "$PGWALK" regions --format=json "$elf"
	is "$rc" 0 "$dump: regions exits 0"
	for v in page_offset_base vmalloc_base vmemmap_base; do
		want=$(kvar $dump $v)
		[ -n "$want" ] || want="(no $v in console.log)"
		is "$(base $v)" "$want" "$dump: $v = the guest's value"
	done
	src=$(printf '%s\n' "$out" | grep '"name":"vmalloc_base"' |
		sed 's/.*"source":"\([a-z]*\)".*/\1/')
	is "$src" inferred "$dump: vmalloc_base says it was inferred"
	unused=$(printf '%s\n' "$out" | awk '/"region":"unused"/ && !/"mapped":0,/' |
		wc -l)
	is "$unused" 0 "$dump: nothing the kernel maps lies in an unused stretch"
	run "$PGWALK" regions --vmalloc-base=0xffffc90000000000 --format=json "$elf"
	is "$(base vmalloc_base)" 0xffffc90000000000 "$dump: --vmalloc-base wins"
done

for dump in i386-pae-a i386-2l-a; do
	elf=$UNPACKED/$dump/vmcore.elf
	run "$PGWALK" regions --format=json "$elf"
	is "$rc" 0 "$dump: regions exits 0"
	total=$(sed -n 's/^VmallocTotal: *\([0-9]*\) kB.*/\1/p' \
		"$SHARED/$dump/console.log" | head -1)
	size=$(printf '%s\n' "$out" | awk '/"region":"vmalloc"/ {
		match($0, /"size":[0-9]+/); print substr($0, RSTART + 7, RLENGTH - 7) / 1024 }')
	is "$size" "$total" "$dump: vmalloc area = the guest's VmallocTotal (kB)"
	end=$(sed -n 's/.*Direct map ends (from info tlb) at \(0x[0-9a-f]*\).*/\1/p' \
		"$SHARED/$dump/README.txt" | head -1)
	is "$(base high_memory)" "$end" "$dump: high_memory = the README's direct-map end"
done
done_testing
