#!/bin/sh
# pgwalk maps on the real dumps, against the guest's own /proc/PID/maps
# (console.log's PGWALK-MAPS lines): every workload process's VMAs, line
# for line as the kernel prints them (range, perms, offset, device, inode,
# the padding, the name), from the ELF core, the raw image and the
# filtered kdumps alike; the JSON and CSV records say the same.
#
# The x86-64 consoles' copies of the file paths were redacted on the host
# ("run/socket" stands for every path on a real file system); the same
# workload's arm64 console names them: /bin/pgwalk-test,
# /data/pgwalk-file.bin, /tmp/pgwalk-shared-file-PID.bin.  So a redacted
# path must be one of these (each inode always the same one), and every
# other name (memfd, /dev/zero and hugetlb pseudo names, [heap] ...) is
# compared as printed.
# i386 kernels have no BTF: maps says so and exits 3.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"

plan 34

# oracle DIR: "pid LINE" for every PGWALK-MAPS line, in the guest's order
# per pid.
oracle() {
	tr -d '\r' <"$1/console.log" |
		sed -n 's/^PGWALK-MAPS pid=\([0-9]*\) name=[^ ]* /\1 /p' |
		sort -s -n -k1,1
}
# ours FILE: "pid LINE" from maps' text, the workload's file paths as the
# x86-64 consoles redacted them (anything else kept: it then differs).
ours() {
	awk '$1 == "#" && $2 == "pid" { pid = $3; next }
	     $1 == "#" { next }
	     { line = $0
	       n = split("/bin/pgwalk-test /data/pgwalk-file.bin " \
			 "/tmp/pgwalk-shared-file-" pid ".bin", f, " ")
	       for (i = 1; i <= n; i++) {
		       at = length(line) - length(f[i]) + 1
		       if (at > 1 && substr(line, at) == f[i] &&
			   substr(line, at - 1, 1) == " ")
			       line = substr(line, 1, at - 1) "run/socket"
	       }
	       print pid, line }' "$1" | sort -s -n -k1,1
}
# pids FILE: the pids the oracle has.
pids() { cut -d' ' -f1 "$1" | uniq | tr '\n' ' '; }

# compare WANT GOT DESC: every oracle pid's lines are ours.
compare() {
	for p in $(pids "$1"); do
		grep "^$p " "$1"
	done >"$TMP/want-sel"
	for p in $(pids "$1"); do
		grep "^$p " "$2"
	done >"$TMP/got-sel"
	if cmp -s "$TMP/want-sel" "$TMP/got-sel"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diff "$TMP/want-sel" "$TMP/got-sel" | head -6 | sed 's/^/#   /'
	fi
}

for d in x64-4l-a x64-5l-a; do
	S=$SHARED/$d
	oracle "$S" >"$TMP/want"
	n=$(grep -c . "$TMP/want")
	np=$(pids "$TMP/want" | wc -w | tr -d ' ')
	for img in "$UNPACKED/$d/vmcore.elf" "$UNPACKED/$d/mem.raw"; do
		name=${img##*/}
		run "$PGWALK" maps "$img"
		is "$rc" 0 "$d $name: maps of every process (${err:-no error})"
		printf '%s\n' "$out" >"$TMP/text-$name"
		[ "$name" != vmcore.elf ] || printf '%s\n' "$out" >"$TMP/$d.text"
		ours "$TMP/text-$name" >"$TMP/got"
		compare "$TMP/want" "$TMP/got" \
			"$d $name: all $n VMAs of the $np workload processes as their /proc/PID/maps"
	done
	# Each redacted inode is one file.
	awk '$1 != "#" && $6 ~ /^\// { print $4, $5, $6 }' "$TMP/text-vmcore.elf" |
		sort -u | awk '{ k = $1 " " $2; n[k]++ } END { for (k in n) if (n[k] > 1) print k }' \
		>"$TMP/twice"
	is "$(cat "$TMP/twice")" "" "$d: one path per device and inode"
	like '^7f[0-9a-f]+-[0-9a-f]+ rw-s 00000000 00:01 [0-9]+ +/memfd:pgwalk-shm \(deleted\)$' \
		"$d: the memfd's pseudo name, deleted"
	like '^[0-9a-f]+-[0-9a-f]+ rw-p 00000000 00:0f [0-9]+ +/anon_hugepage \(deleted\)$' \
		"$d: the hugetlb file's pseudo name"
	is "$(grep -c '^# pid' "$TMP/text-vmcore.elf")" \
		"$(awk '$1 ~ /^pid=/ && $0 !~ /pgd_phys=-/' "$S/process-roots.txt" | grep -c .)" \
		"$d: a record for every process with an mm (crash's process-roots.txt)"

	# JSON: the same VMAs, field by field.
	run "$PGWALK" maps --format=json "$UNPACKED/$d/vmcore.elf"
	is "$rc" 0 "$d: json"
	printf '%s\n' "$out" | sed -n 's/.*"type":"vma","pid":\([0-9]*\),.*"va":"0x\([0-9a-f]*\)","end":"0x\([0-9a-f]*\)".*"perms":"\([^"]*\)".*/\1 \2 \3 \4/p' >"$TMP/json"
	awk '$1 != "#" { split($1, r, "-"); sub(/^0+/, "", r[1]); sub(/^0+/, "", r[2]); print r[1], r[2], $2 }' \
		"$TMP/text-vmcore.elf" >"$TMP/tr"
	is "$(cut -d' ' -f2- "$TMP/json" | sed 's/^ /0 /')" "$(cat "$TMP/tr")" \
		"$d: json's vma records: the text's ranges and perms, in order"
	like '"type":"summary","processes":[0-9]+,"vmas":[0-9]+,"processes_incomplete":0,"complete":true' \
		"$d: json summary: complete"
	like '"perms":"rw-s","pgoff":0,"dev":"00:01","inode":1024,"naming":"path","path":"/memfd:pgwalk-shm \(deleted\)","vm_flags":"0x80000fb","vm_flag_names":\["rd","wr","sh","mr","mw","me","ms","sd"\]' \
		"$d: json: a memfd VMA's fields and decoded vm_flags (crash's vm: 80000fb)"
done

# The filtered kdumps (user pages left out; the kernel's structures stay).
for k in vmcore-d31.kdump vmcore-d31-zlib.flat; do
	run "$PGWALK" maps "$SHARED/x64-4l-a/$k"
	is "$rc" 0 "x64-4l-a $k: maps (${err:-no error})"
	is "$out" "$(cat "$TMP/x64-4l-a.text")" \
		"x64-4l-a $k: the ELF's maps, byte for byte"
done

# CSV: one row per record, the path escaped and quoted as text.
run "$PGWALK" maps --format=csv --pid=133 "$UNPACKED/x64-4l-a/vmcore.elf"
is "$(printf '%s\n' "$out" | head -1)" \
	"type,pid,comm,va,end,size,perms,pgoff,dev,inode,naming,path,vm_flags,complete,reason,why,detail" \
	"csv: the header"
is "$(printf '%s\n' "$out" | grep -c '^vma,133,pgw-shr-child,')" 14 \
	"csv: pgw-shr-child's 14 VMAs"

for d in i386-2l-a i386-pae-a; do
	run "$PGWALK" maps "$UNPACKED/$d/vmcore.elf"
	one_error "$d: no BTF: one line, exit 3" 3
	is "$out" "" "$d: no records"
done
