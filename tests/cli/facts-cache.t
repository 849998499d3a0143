#!/bin/sh
# The facts cache (src/cli/facts_cache.c) on synthetic images whose spec
# is the truth: vmcoreinfo-fake.spec (8 pages begin like VMCOREINFO, the
# note at 0x1a00000 the one valid) and roots-pae.spec (no VMCOREINFO: the
# kernel-root scan finds 0x1000000 under pae).  The entry a first command
# writes holds exactly the spec's pages; a second command uses it, says
# so on -v, and prints what --no-cache prints.  Entries from another
# image, corrupt or hostile ones, an image changed in place (same size
# and mtime), a cache that cannot be written: each output is --no-cache's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 69

mk() {
	_name=$1
	shift
	cat "$@" | "$MKIMAGE" -r "$TMP/$_name.raw" ||
		echo "# pgw-mkimage $_name failed"
}
mk fake "$SPECS/vmcoreinfo-fake.spec"
mk pae "$SPECS/roots-pae.spec"
cp "$TMP/fake.raw" "$TMP/fake.orig"
# Its own cache, even when the suite runs without one (PGW_TEST_CACHE).
export XDG_CACHE_HOME=$TMP/.cache
C=$XDG_CACHE_HOME/pgwalk

# info IMAGE ARGS...: info -v, stdout in $out, stderr in $err.
info() { run "$PGWALK" info -v "$@"; }
# said RE NAME: like, on stderr.
said() { _o=$out; out=$err; like "$1" "$2"; out=$_o; }

"$PGWALK" info --no-cache "$TMP/fake.raw" >"$TMP/want" 2>/dev/null
wrc=$?
[ ! -e "$XDG_CACHE_HOME" ]
ok $? "--no-cache: nothing written"
info "$TMP/fake.raw"
is "$rc:$out" "$wrc:$(cat "$TMP/want")" "first run: the output of --no-cache"
entry=$(ls "$C")
is "$(ls "$C" | grep -c '')" 1 "one entry written"
is "$(stat -c %a "$XDG_CACHE_HOME"):$(stat -c %a "$C"):$(stat -c %a "$C/$entry")" \
	700:700:600 "the folders are 0700, the entry 0600"
# The spec's memtext pages, the note at 0x1a00000 the valid one.
sed -n 's/^memtext \(0x[0-9a-f]*\) .*/\1/p' "$SPECS/vmcoreinfo-fake.spec" |
	awk '{ print "vmcoreinfo", $1, ($1 == "0x1a00000" ? "valid" : "invalid") }' \
	>"$TMP/pages"
grep '^vmcoreinfo ' "$C/$entry" >"$TMP/got"
cmp -s "$TMP/pages" "$TMP/got"
ok $? "the entry holds the spec's 8 pages, 0x1a00000 the valid one"
cp "$C/$entry" "$TMP/entry.good"

info "$TMP/fake.raw"
is "$rc:$out" "$wrc:$(cat "$TMP/want")" "second run: the same output"
said '^pgwalk: cache: the 8 VMCOREINFO candidate pages an earlier scan found, each checked again' \
	"... and -v says the candidates came from the cache"
cmp -s "$C/$entry" "$TMP/entry.good"
ok $? "... the entry left as it was"
said '^pgwalk: cache: byte 0 is physical 0, as the VMCOREINFO pages an earlier scan found say' \
	"... and the raw image's base came from them too"
run "$PGWALK" info -v --base=0 "$TMP/fake.raw"
case $err in *"cache: byte 0"*) ok 1 "--base given: no base from the cache" ;;
*) ok 0 "--base given: no base from the cache" ;; esac
run "$PGWALK" read --no-cache -v "$TMP/fake.raw" 0xffffffff81000000 16
case $err in *"pgwalk: cache:"*) ok 1 "--no-cache: no fact from the cache" ;;
*) ok 0 "--no-cache: no fact from the cache" ;; esac

# hostile ENTRY-TEXT-FILE NAME: the entry replaced by the file's bytes;
# the output is --no-cache's and no fact came from the cache.
hostile() {
	cp "$1" "$C/$entry"
	info "$TMP/fake.raw"
	is "$rc:$out" "$wrc:$(cat "$TMP/want")" "$2: the output of --no-cache"
	case $err in *"pgwalk: cache: the "*) ok 1 "$2: not used" ;;
	*) ok 0 "$2: not used" ;; esac
}

# Another image's entry under this image's name.
info "$TMP/pae.raw"
pae_entry=$(ls "$C" | grep -vx "$entry")
hostile "$C/$pae_entry" "another image's entry"
said 'entry not used \(written for another image, or before the image changed\)' \
	"... saying so"
head -c 3000 /dev/urandom >"$TMP/h"
hostile "$TMP/h" "random bytes"
{ head -n 2 "$TMP/entry.good"; printf 'vmcoreinfo 0x1a00000 valid\0\n'; } >"$TMP/h"
hostile "$TMP/h" "a NUL byte"
{ head -n 2 "$TMP/entry.good"; awk 'BEGIN { for (i = 0; i < 200; i++)
	printf "vmcoreinfo 0x%x invalid\n", (i + 1) * 4096 }'; } >"$TMP/h"
hostile "$TMP/h" "200 pages (more than the 16 an entry holds)"
{ head -n 2 "$TMP/entry.good"; tail -n 1 "$TMP/entry.good"
  sed -n 3p "$TMP/entry.good"; } >"$TMP/h"
hostile "$TMP/h" "pages out of order"
# Well formed, this image's identity, pages that are no candidates: each
# is checked again and the whole scan runs.
{ head -n 2 "$TMP/entry.good"; echo 'vmcoreinfo 0x1000 valid'; } >"$TMP/h"
hostile "$TMP/h" "a page that holds no VMCOREINFO"
cmp -s "$C/$entry" "$TMP/entry.good"
ok $? "... and the entry is written again from the whole scan"
{ head -n 2 "$TMP/entry.good"; echo 'vmcoreinfo 0x1a00000 invalid'; } >"$TMP/h"
hostile "$TMP/h" "the valid page said invalid"

# The pae image: the kernel-root scan's table.
info "$TMP/pae.raw"
said '^pgwalk: cache: the kernel root 0x1000000 \(pae\) an earlier scan found, checked again' \
	"pae: the kernel root came from the cache"
"$PGWALK" info --no-cache "$TMP/pae.raw" >"$TMP/pwant" 2>/dev/null
is "$out" "$(cat "$TMP/pwant")" "... the output of --no-cache"
grep -q '^kernel-root 0x1000000 pae asked=any enc=0x0 shared=0x0$' \
	"$C/$pae_entry"
ok $? "... the entry names the spec's root and mode"
# A command that scans for nothing leaves the entry's facts as they were.
cp "$C/$pae_entry" "$TMP/pae.good"
"$PGWALK" read --mode=pae --cr3=0x1000000 "$TMP/pae.raw" 0xc0000000 4 \
	>/dev/null 2>&1
cmp -s "$C/$pae_entry" "$TMP/pae.good"
ok $? "a command with no scan keeps the entry's kernel root"
sed 's/^kernel-root 0x1000000 /kernel-root 0x1100000 /' "$C/$pae_entry" \
	>"$TMP/h"
cp "$TMP/h" "$C/$pae_entry"
info "$TMP/pae.raw"
is "$out" "$(cat "$TMP/pwant")" "a kernel root that is not one: the output of --no-cache"
case $err in *"pgwalk: cache: the kernel root"*) ok 1 "... not used" ;;
*) ok 0 "... not used" ;; esac

# A kernel root found for another question (a scan asked for pae, or
# with a C-bit): this scan asks for any mode, without bits.
for q in 's/ asked=any / asked=pae /' 's/ enc=0x0 / enc=0x800000000000 /'; do
	sed "$q" "$TMP/pae.good" >"$C/$pae_entry"
	info "$TMP/pae.raw"
	case $out:$err in "$(cat "$TMP/pwant")":*"pgwalk: cache: the kernel root"*)
		ok 1 "a kernel root for another scan ($q): not used" ;;
	"$(cat "$TMP/pwant")":*) ok 0 "a kernel root for another scan ($q): not used" ;;
	*) ok 1 "a kernel root for another scan ($q): the output of --no-cache" ;;
	esac
done

# An image changed in place, its size, mtime, inode, first and last
# 64 KiB and sampled pages (every 4 MiB) as they were: the note at
# 0x1a00000 (26 MiB in) overwritten.
cp "$TMP/fake.raw" "$TMP/changed.raw"
touch -r "$TMP/fake.raw" "$TMP/changed.raw"
info "$TMP/changed.raw"
printf 'XXXXXXXXXXXXXXXX' | dd of="$TMP/changed.raw" bs=1 \
	seek=$((0x1a00000)) conv=notrunc status=none
touch -r "$TMP/fake.raw" "$TMP/changed.raw"
"$PGWALK" info --no-cache "$TMP/changed.raw" >"$TMP/cwant" 2>/dev/null
crc=$?
info "$TMP/changed.raw"
is "$rc:$out" "$crc:$(cat "$TMP/cwant")" "an image changed in place: the output of --no-cache"
case $err in *"pgwalk: cache: the "*) ok 1 "... its old pages not used" ;;
*) ok 0 "... its old pages not used" ;; esac
case $err in *"entry not used"*) ok 1 "... though its identity is the same" ;;
*) ok 0 "... though its identity is the same (each page checked again)" ;; esac

# The task list's facts, on pgw-mkkernel's kernel (ksynth.h: init_task at
# 0xffffffff80300000, BTF at 0xffffffff80280010, 0x224 bytes): the entry
# names them, a second command reads the list from them without parsing
# kallsyms or BTF and prints what --no-cache prints; edited ones are
# checked and not used, saying why.
"$PGW_TOOLS/pgw-mkkernel" "$TMP/k.elf" || echo "# pgw-mkkernel failed"
"$PGWALK" read --no-cache --pid=1 "$TMP/k.elf" 0x400000 16 >"$TMP/kwant" \
	2>/dev/null
kwrc=$?
"$PGWALK" ps --no-cache "$TMP/k.elf" >"$TMP/pswant" 2>/dev/null
ls "$C" >"$TMP/before"
kread() { run "$PGWALK" read -v --pid=1 "$TMP/k.elf" 0x400000 16; }
kread
is "$rc:$out" "$kwrc:$(cat "$TMP/kwant")" "kernel: first run, the output of --no-cache"
kentry=$C/$(ls "$C" | grep -vxF -f "$TMP/before")
grep -qx 'tasks vmcoreinfo+btf 0xffffffff80300000' "$kentry" &&
	grep -q '^btf 0xffffffff80280010 0x224 0x' "$kentry"
ok $? "... the entry names ksynth's init_task and BTF"
cp "$kentry" "$TMP/kentry.good"
kread
is "$rc:$out" "$kwrc:$(cat "$TMP/kwant")" "kernel: second run, the same output"
said "^pgwalk: cache: the task list's init_task and layout an earlier command found" \
	"... and -v says the list came from the cache's facts"
run "$PGWALK" ps -v "$TMP/k.elf"
is "$out" "$(cat "$TMP/pswant")" "ps from the cache's facts: the output of --no-cache"

# khostile SED NAME WHY: the good entry edited by SED; --no-cache's
# output, the facts not used, and -v says WHY.
khostile() {
	sed "$1" "$TMP/kentry.good" >"$kentry"
	cmp -s "$kentry" "$TMP/kentry.good" && echo "# $2: sed changed nothing"
	kread
	is "$rc:$out" "$kwrc:$(cat "$TMP/kwant")" "$2: the output of --no-cache"
	case $err in *"cache: the task list's init_task"*) ok 1 "$2: not used" ;;
	*) ok 0 "$2: not used" ;; esac
	said "$3" "... saying why"
}
khostile 's/^tasks \(.*\) 0xffffffff80300000$/tasks \1 0xffff888000400400/' \
	"init_task another task" "facts not used \(the task list it reads its first task is no init_task"
khostile '/^task-layout/s/^task-layout \(0x[0-9a-f]* 0x[0-9a-f]* 0x[0-9a-f]* 0x[0-9a-f]*\) 0x28 /task-layout \1 0x30 /' \
	"the pid at comm's offset" "facts not used \(the task list it reads "
khostile '/^kallsyms /s/ 0x[0-9a-f]*$/ 0x1/' "a kallsyms hash that is not" \
	"facts not used \(the kallsyms tables at 0xffffffff80200000 hash otherwise"
khostile 's/^tasks vmcoreinfo+btf /tasks scanned-kallsyms+btf /' \
	"the method of an older kernel" "facts not used \(its method is not this image's\)"
khostile 's/^kernel-space x86-64 0x1000 /kernel-space x86-64 0x2000 /' \
	"another kernel space" "facts not used \(read through another kernel space\)"
khostile '/^btf /d' "a line left out" "entry not used \(kernel facts without all their lines\)"
khostile "s/^tasks-why kallsyms/tasks-why $(printf '\033')[31mkallsyms/" \
	"a control byte in the words" "entry not used \(a tasks-why line that is not one"

# Where the cache cannot be written, and where it goes without
# XDG_CACHE_HOME.
run env XDG_CACHE_HOME=/dev/null/cache "$PGWALK" info "$TMP/fake.raw"
is "$rc:$out:$err" "$wrc:$(cat "$TMP/want"):" \
	"an unwritable cache: the same output, nothing said"
mkdir "$TMP/home"
HOME=$TMP/home XDG_CACHE_HOME=relative "$PGWALK" info "$TMP/fake.raw" >/dev/null 2>&1
is "$(ls "$TMP/home/.cache/pgwalk" | grep -c '')" 1 \
	"a relative XDG_CACHE_HOME is none: ~/.cache/pgwalk"
[ ! -e relative ]
ok $? "... nothing written under the relative path"
is "$(ls -a "$C" | grep -c tmp)" 0 "no temporary file left"
cmp -s "$TMP/fake.raw" "$TMP/fake.orig"
ok $? "the image is never written"
done_testing
