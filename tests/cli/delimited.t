#!/bin/sh
# Every command's CSV and TSV read back by a real CSV reader (python3's csv
# module): one header row, then exactly as many rows as the JSON stream
# has records, and every row exactly as many cells as the header, in both
# formats, with the same header.  Runs that print each record type there
# is: findings and check's summary, diff's ranges and summary, holes and
# non-present entries, read's gaps, inputs that are not addresses (a comma
# and a quote among them), a root's PTI pair, hostile and filtered images.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 34

if ! command -v python3 >/dev/null 2>&1; then
	skip_all "python3 is not installed"
fi
cat >"$TMP/cells.py" <<'EOF'
import csv, sys
def rows(path, **kw):
    with open(path, newline='', encoding='ascii') as f:
        return list(csv.reader(f, **kw))
c = rows(sys.argv[1])
t = rows(sys.argv[2], delimiter='\t', quoting=csv.QUOTE_NONE)
with open(sys.argv[3], encoding='ascii') as f:
    njson = sum(1 for _ in f)
problems = []
if not c or not t:
    problems.append('no header')
else:
    for name, rs in (('csv', c), ('tsv', t)):
        for i, r in enumerate(rs):
            if len(r) != len(rs[0]):
                problems.append('%s row %d (%s): %d cells under %d' %
                                (name, i, r[0], len(r), len(rs[0])))
    if c[0] != t[0]:
        problems.append('headers differ: %s / %s' % (c[0], t[0]))
    if len(c) - 1 != njson or len(t) - 1 != njson:
        problems.append('%d csv and %d tsv rows for %d JSON records' %
                        (len(c) - 1, len(t) - 1, njson))
print('%d rows of %d cells' % (len(c) - 1, len(c[0]) if c else 0))
for p in problems[:4]:
    print('# ' + p)
sys.exit(1 if problems else 0)
EOF

# cells DESC PGWALK-ARGS... (stdin from $TMP/in): one test.
: >"$TMP/in"
cells() {
	_desc=$1
	shift
	for f in json csv tsv; do
		"$PGWALK" "$@" --format=$f <"$TMP/in" >"$TMP/o.$f" 2>/dev/null
	done
	_r=$(python3 "$TMP/cells.py" "$TMP/o.csv" "$TMP/o.tsv" "$TMP/o.json")
	_rc=$?
	[ "$(sed -n 1p "$TMP/o.json" | cut -c1-1)" = "{" ] || _rc=1
	ok $_rc "$1 $_desc: $(printf '%s\n' "$_r" | head -1)"
	[ $_rc = 0 ] || printf '%s\n' "$_r" | sed 1d
}

for s in x86-64 pae i386 la57 x86-64-pti read-x86-64; do
	"$MKIMAGE" -e "$TMP/$s.elf" -x "$TMP/$s.exp" "$SPECS/$s.spec" ||
		bail "pgw-mkimage $s failed"
done
X=$TMP/x86-64.elf
{ awk 'NR % 7 == 1 { print $1 }' "$TMP/x86-64.exp"; printf '%s\n' zzz 'a,"b' 0x800000000000; } >"$TMP/in"
cells "addresses, non-canonical, not addresses" translate "$X" -
cells "--levels" translate --levels "$X" -
: >"$TMP/in"
cells "x86-64" dump "$X"
cells "--leaves --non-present" dump --leaves --non-present "$X"
cells "pae" dump "$TMP/pae.elf"
cells "i386" dump "$TMP/i386.elf"
cells "la57" dump "$TMP/la57.elf"
cells "x86-64" regions "$X"
cells "la57" regions "$TMP/la57.elf"
R=$TMP/read-x86-64.elf
cells "across the 2M/4K edge" read "$R" 0x401fff00 0x200
cells "--skip-unreadable past RAM and holes" read --skip-unreadable "$R" 0x3ff000 0x5000
cells "--phys --skip-unreadable" read --phys --skip-unreadable "$R" 0x3fff000 0x3000
printf '%s\n' 0x3000010 0x50000000 zzz 'a,"b' >"$TMP/in"
cells "mapped, unmapped, not addresses" ptov "$R" -
: >"$TMP/in"
cells "one root" check --severity=info "$X"
cells "a PTI pair" diff --pti --cpu=1 "$TMP/x86-64-pti.elf"
cells "two images, --data" diff --cr3=0x100000 --mode=x86-64 --data "$X" "$TMP/pae.elf"

# Kernels: roots with names, findings of every rule, diff of processes.
KMK=$PGW_TOOLS/pgw-mkkernel
"$KMK" "$TMP/k.elf" && "$KMK" --raw --fake-vmcoreinfo --hidden "$TMP/kh.raw" &&
	"$KMK" --text-bounds "$TMP/kt.elf" || bail "pgw-mkkernel failed"
cells "named, unowned tasks, an escaped comm" roots "$TMP/k.elf"
cells "a suspicious orphan" roots "$TMP/kh.raw"
cells "--all-roots named" ptov --all-roots "$TMP/k.elf" 0x1000 0x200000 0x300000
cells "--all-roots, a hidden root" check --all-roots --severity=info "$TMP/kh.raw"
for a in wx text-alias user-kernel reserved beyond-ram; do
	"$KMK" --text-bounds --plant=$a "$TMP/kp.elf" || bail "pgw-mkkernel --plant=$a failed"
	cells "--plant=$a" check --all-roots --severity=info "$TMP/kp.elf"
done
cells "two processes --data" diff --pid=1 --pid=10 --data "$TMP/kt.elf"
cells "a process (its user half)" dump --comm=init "$TMP/k.elf"
cells "a process with --kernel-half" dump --comm=init --kernel-half "$TMP/k.elf"

# VMAs: measured, and their pages.
"$PGW_TOOLS/pgw-mkvmas" "$TMP/v.elf" || bail "pgw-mkvmas failed"
cells "--smaps" maps --smaps "$TMP/v.elf"
cells "--pages" maps --pages "$TMP/v.elf"

# A filtered kdump: tables not in the image, uncompared ranges.
run "$PGW_TOOLS/pgw-mkdump" kdump --holes --filter --exclude-zero --codec=zlib \
	--vas="$TMP/kvas" "$TMP/kd"
eval "$out"   # cr3= filtered_table_va= npages=
cp "$TMP/kvas" "$TMP/in"
cells "filtered kdump" translate --cr3="$cr3" --mode=x86-64 "$TMP/kd" -
: >"$TMP/in"
cells "filtered kdump" dump --cr3="$cr3" --mode=x86-64 "$TMP/kd"
cells "filtered kdump" check --cr3="$cr3" --mode=x86-64 --severity=info "$TMP/kd"
cells "filtered kdump with itself, --data" diff --cr3="$cr3" --mode=x86-64 --data "$TMP/kd" "$TMP/kd"
done_testing
