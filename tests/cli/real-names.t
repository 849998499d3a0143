#!/bin/sh
# What an address is, on the real dumps, against the guests' own word:
# every kernel variable and symbol address console.log prints
# (PGWALK-KVAR / PGWALK-KSYM name= addr=, read by the guest from
# /proc/kallsyms; on i386 its /proc/kallsyms lines) is named by the
# image's kallsyms at offset 0, by its own
# name or an alias at the same address (the kernel's %pS picks the first
# of them in kallsyms' order: startup_64 for _text and _stext, jiffies for
# jiffies_64, ...); init_task + 0x18 is init_task+0x18; the direct
# map, modules' area and user addresses get no symbol.  Every user address
# a process's /proc/PID/maps line covers (console.log's PGWALK-MAPS) is
# named by that VMA: its path as the guest printed it (the x86-64
# consoles redacted real files' paths to "run/socket": real-maps.t) and,
# for a file, the offset pgoff + (va - start).  search names each marker
# string console.log lists (PGWALK-FINAL marker_va= marker=) by the VMA
# the guest's maps puts its address in, in the process's own search
# (--pid) and through every root (--all-roots); dump --pid names each
# mapping's first address alike, and ptov --all-roots each marker's
# mapping from its frame (pa=, the guest's pagemap).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"

plan 21

# ksyms DIR: "addr name" for every address the guest printed (not 0):
# PGWALK-KSYM/KVAR lines, or (i386) /proc/kallsyms lines between
# PGWALK-KSYMS-BEGIN and -END.
ksyms() {
	tr -d '\r' <"$1/console.log" | awk '
		/^PGWALK-KSYMS-BEGIN/ { inside = 1; next }
		/^PGWALK-KSYMS-END/ { inside = 0; next }
		inside && NF == 3 { print "0x" $1, $3; next }
		$1 ~ /^PGWALK-K(SYM|VAR)$/ {
			n = substr($2, 6); a = substr($3, 6)
			if (a != "0x0") print a, n
		}'
}
# named IMAGE OFF: "addr symbol" per oracle address + OFF (translate
# --names, JSON; "-" for none).
# (Kernel addresses exceed the shell's signed arithmetic: OFF is added to
# the low 32 bits, which no oracle address has near a carry.)
named() {
	while read -r a _; do
		lo=$(printf '%s' "$a" | tail -c 8)
		printf '%s%08x\n' "${a%"$lo"}" $((0x$lo + $2))
	done <"$TMP/k" |
		"$PGWALK" translate --names --format=json "$1" - 2>/dev/null |
		jq -r '"\(.va) \(.symbol // "-")"'
}

for dm in x64-4l-a:vmcore.elf x64-4l-a:mem.raw x64-5l-a:vmcore.elf \
	  arm64-4k-a:vmcore.elf arm64-16k-a:vmcore.elf i386-2l-a:vmcore.elf \
	  i386-pae-a:vmcore.elf; do
	d=${dm%%:*} f=${dm#*:}
	ksyms "$SHARED/$d" >"$TMP/k"
	named "$UNPACKED/$d/$f" 0 >"$TMP/n0"
	# Each oracle name, pgwalk's name at its address, and the names of
	# the two when they differ: an alias must start where it does.
	total=$(grep -c '' "$TMP/k")
	at0=$(awk '$2 !~ /\+/ && $2 != "-"' "$TMP/n0" | grep -c '')
	aliases=$(paste -d' ' "$TMP/k" "$TMP/n0" |
		awk '$2 != $4 { printf "%s=%s ", $2, $4 }')
	case $d in
	x64-*) want_alias="_text=startup_64 _stext=startup_64 jiffies_64=jiffies " ;;
	arm64-4k-a) want_alias="_stext=bcm2835_handle_irq __init_begin=set_reset_devices " ;;
	i386-*) want_alias="_stext=startup_32 _text=startup_32 _sinittext=setup_once __init_begin=setup_once " ;;
	arm64-16k-a) want_alias="__entry_tramp_text_start=tramp_vectors jiffies_64=jiffies __start_rodata=_etext __init_begin=_sinittext __init_end=init_stack _sdata=init_stack __bss_start=__kvm_nvhe___hyp_section_.hyp.bss " ;;
	esac
	is "$at0/$total $aliases" "$total/$total $want_alias" \
		"$d $f: every address the guest printed is a symbol's start; its name or an alias"
done

# 0x18 further on, and the places no symbol names (x64-4l-a's ELF): the
# direct map (page_offset_base's value), the modules' area above _end, a
# user address; _etext + 0x18 lies past the end of text.
E=$UNPACKED/x64-4l-a/vmcore.elf
printf '%s\n' 0xffffffffa6c1aa58 0xffff8bc2c0001000 0xffffffffc0000000 \
	0x400000 0xffffffffa6001f0a >"$TMP/q"
run "$PGWALK" translate --names --format=json "$E" - <"$TMP/q"
is "$(printf '%s\n' "$out" | jq -r '.symbol // "-"' | tr '\n' ' ')" \
	"init_task+0x18 - - - - " \
	"init_task+0x18; no symbol for the direct map, modules, user space, past _etext"
run "$PGWALK" translate "$E" 0xffffffffa6c1aa40
case $out in *symbol=*) ok 1 "without --names no symbol is read" ;;
*) ok 0 "without --names no symbol is read" ;; esac

# maps_oracle DIR: "pid va path file_offset" for an address 0x10 into
# every VMA the guest's maps lists ("-" for none).
maps_oracle() {
	tr -d '\r' <"$1/console.log" | awk '$1 == "PGWALK-MAPS" {
		path = ""
		for (i = 9; i <= NF; i++) path = path (path == "" ? "" : " ") $i
		print substr($2, 5), substr($4, 1, index($4, "-") - 1), $5 " " $6,
		      $8 == "" ? "-" : $8, path == "" ? "-" : path
	}' | while read -r pid start perms pgoff inode path; do
		fo=-
		[ "$inode" != 0 ] && fo=$(printf '0x%x' $((0x$pgoff + 16)))
		printf '%s 0x%x %s %s\n' "$pid" $((0x$start + 16)) "$path" "$fo"
	done
}
# maps_ours IMAGE ORACLE: the same, from translate --pid=P --format=json,
# the workload's real files' paths as the x86-64 consoles redacted them.
maps_ours() {
	for pid in $(cut -d' ' -f1 "$2" | sort -un); do
		awk -v p="$pid" '$1 == p { print $2 }' "$2" |
			"$PGWALK" translate --pid="$pid" --format=json "$1" - |
			jq -r --arg p "$pid" '"\($p) \(.va) \(.path // "-") \(.file_offset // "-")"'
	done | awk '{ if ($3 ~ /^\/(bin\/pgwalk-test|data\/pgwalk-file\.bin|tmp\/pgwalk-shared-file-[0-9]+\.bin)$/) $3 = "run/socket"; print }'
}
for dm in x64-4l-a:vmcore.elf x64-4l-a:mem.raw x64-5l-a:vmcore.elf; do
	d=${dm%%:*} f=${dm#*:}
	maps_oracle "$SHARED/$d" | sort >"$TMP/mo"
	maps_ours "$UNPACKED/$d/$f" "$TMP/mo" | sort >"$TMP/mu"
	n=$(grep -c '' "$TMP/mo")
	is "$(comm -3 "$TMP/mo" "$TMP/mu" | head -3) $(grep -c '' "$TMP/mu")" " $n" \
		"$d $f: a user address in each of the guest's $n VMAs is named by its path and file offset (--pid)"
done

# markers DIR: "pid va marker" of every marker string console.log names.
markers() {
	tr -d '\r' <"$1/console.log" | awk '$1 == "PGWALK-FINAL" {
		m = ""; va = ""
		for (i = 2; i <= NF; i++) {
			if (index($i, "marker=") == 1) { m = substr($i, 8); gsub(/"/, "", m) }
			if (index($i, "marker_va=") == 1) va = tolower(substr($i, 11))
		}
		if (m != "") print substr($2, 5), va, m
	}' | sort -u
}
# vma_at DIR: for each "pid va" line on stdin, "pid va path
# file_offset" from the maps line of its pid whose range holds it ("-"
# for no path, no file).
vma_at() {
	tr -d '\r' <"$1/console.log" | awk '$1 == "PGWALK-MAPS" {
		path = ""
		for (i = 9; i <= NF; i++) path = path (path == "" ? "" : " ") $i
		print substr($2, 5), $4, $6, $8, path == "" ? "-" : path
	}' >"$TMP/maps"
	while read -r pid va _; do
		v=$((va))
		while read -r p range pgoff inode path; do
			[ "$p" = "$pid" ] || continue
			start=$((0x${range%-*})) end=$((0x${range#*-}))
			[ "$v" -ge "$start" ] && [ "$v" -lt "$end" ] || continue
			fo=-
			[ "$inode" != 0 ] && fo=$(printf '0x%x' $((0x$pgoff + v - start)))
			printf '%s %s %s %s\n' "$pid" "$va" "$path" "$fo"
		done <"$TMP/maps"
	done
}
vma_of() { markers "$1" | vma_at "$1"; }
redact() {
	sed -E 's# /(bin/pgwalk-test|data/pgwalk-file\.bin|tmp/pgwalk-shared-file-[0-9]+\.bin) # run/socket #'
}
for dm in x64-4l-a:vmcore.elf x64-5l-a:vmcore.elf; do
	d=${dm%%:*} f=${dm#*:} img=$UNPACKED/${dm%%:*}/${dm#*:}
	vma_of "$SHARED/$d" | sort >"$TMP/want"
	markers "$SHARED/$d" >"$TMP/mk"
	# Each process's own search, all its markers at once.
	for pid in $(cut -d' ' -f1 "$TMP/mk" | sort -un); do
		set --
		for m in $(awk -v p="$pid" '$1 == p { print $3 }' "$TMP/mk"); do
			set -- "$@" --string="$m"
		done
		"$PGWALK" search --pid="$pid" --context=0 --max-hits=100000 \
			--format=json "$@" "$img" |
			jq -r --arg p "$pid" 'select(.type == "hit") | "\($p) \(.va) \(.pattern)\t\(.path // "-") \(.file_offset // "-")"'
	done | awk -F'\t' 'NR == FNR { want[$0] = 1; next }
		    { split($1, k, " "); sub(/^string:/, "", k[3]) }
		    (k[1] " " k[2] " " k[3]) in want { print k[1], k[2], $2 }' "$TMP/mk" - |
		redact | sort -u >"$TMP/got"
	n=$(grep -c '' "$TMP/want")
	is "$(comm -3 "$TMP/want" "$TMP/got" | head -3)$(grep -c '' "$TMP/got")" "$n" \
		"$d: search --pid names each of the $n markers by the VMA the guest's maps puts it in"
	"$PGWALK" search --all-roots --string=PGWALK- --context=0 \
		--max-hits=100000 --format=json "$img" |
		jq -r 'select(.type == "hit" and .pid != null) | "\(.pid) \(.va) \(.path // "-") \(.file_offset // "-")"' |
		awk 'NR == FNR { want[$1 " " $2] = 1; next } ($1 " " $2) in want' "$TMP/mk" - |
		redact | sort -u >"$TMP/got"
	is "$(comm -3 "$TMP/want" "$TMP/got" | head -3)$(grep -c '' "$TMP/got")" "$n" \
		"$d: search --all-roots names each marker's mapping by its process's VMA"
done

for dm in x64-4l-a:vmcore.elf x64-5l-a:vmcore.elf; do
	d=${dm%%:*} img=$UNPACKED/${dm%%:*}/${dm#*:}
	for pid in $(vma_of "$SHARED/$d" | cut -d' ' -f1 | sort -un); do
		"$PGWALK" dump --pid="$pid" --format=json "$img" |
			jq -r --arg p "$pid" 'select(.type == "map") | "\($p) \(.va)\t\(.path // "-") \(.file_offset // "-")"'
	done | tr '\t' ' ' | redact | sort >"$TMP/got"
	cut -d' ' -f1,2 "$TMP/got" | vma_at "$SHARED/$d" | sort >"$TMP/want"
	n=$(grep -c '' "$TMP/want")
	is "$(comm -3 "$TMP/want" "$TMP/got" | head -3)$(grep -c '' "$TMP/got")" "$n" \
		"$d: dump --pid names each of its $n mappings' first address by the guest's VMA"
done

# ptov --all-roots from each marker's frame: the mapping at the marker's
# own pid and va is named by its VMA.
for dm in x64-4l-a:vmcore.elf x64-5l-a:vmcore.elf; do
	d=${dm%%:*} img=$UNPACKED/${dm%%:*}/${dm#*:}
	vma_of "$SHARED/$d" | sort >"$TMP/want"
	markers "$SHARED/$d" >"$TMP/mk"
	tr -d '\r' <"$SHARED/$d/console.log" | awk '$1 == "PGWALK-FINAL" {
		for (i = 2; i <= NF; i++)
			if (index($i, "pa=0x") == 1) print tolower(substr($i, 4))
	}' | sort -u >"$TMP/pas"
	"$PGWALK" ptov --all-roots --format=json "$img" - <"$TMP/pas" |
		jq -r 'select(.pid != null) | "\(.pid) \(.va)\t\(.path // "-") \(.file_offset // "-")"' |
		awk -F'\t' 'NR == FNR { split($0, k, " "); want[k[1] " " k[2]] = 1; next }
			     $1 in want { print $1, $2 }' "$TMP/mk" - |
		redact | sort -u >"$TMP/got"
	n=$(grep -c '' "$TMP/want")
	is "$(comm -3 "$TMP/want" "$TMP/got" | head -3)$(grep -c '' "$TMP/got")" "$n" \
		"$d: ptov --all-roots names each of the $n markers' mappings by its process's VMA"
done

# ptov --names from the frame behind entry_SYSCALL_64 (the guest's
# PGWALK-KSYM address, translated): its text mapping is named so.
va=$(tr -d '\r' <"$SHARED/x64-4l-a/console.log" |
	sed -n 's/^PGWALK-KSYM name=entry_SYSCALL_64 addr=\(0x[0-9a-f]*\).*/\1/p')
pa=$("$PGWALK" translate --format=json "$E" "$va" | jq -r .pa)
run "$PGWALK" ptov --names --format=json "$E" "$pa"
is "$(printf '%s\n' "$out" | jq -r --arg va "$va" 'select(.va == $va) | .symbol')" \
	"entry_SYSCALL_64" "ptov --names: the kernel text's mapping of $pa is entry_SYSCALL_64"
