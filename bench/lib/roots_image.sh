# shellcheck shell=sh
# Sourced by bench/threads.sh and bench/speedup.sh: the benchmark image of
# the threaded commands.
# roots_spec MIB: roots-x86-64.spec's kernel and 100 processes spread
# over MIB MiB of RAM (each process 16 KiB of user memory holding its
# marker).
roots_spec() {
	echo "mode x86-64"
	echo "ram 0 $1M"
	sed -n '/^root 0x1000000/,/^map 0xfffffe/p' \
		"$REPO/tests/specs/roots-x86-64.spec"
	_i=0
	while [ "$_i" -lt 100 ]; do
		_r=$((0x8000000 + _i * ($1 * 0x100000 - 0x8000000) / 100))
		_r=$((_r & ~0x1fff))
		printf 'root 0x%x\nclone-kernel 0x1000000\n' "$_r"
		printf 'map 0x400000 0x%x 16K user a\n' $((_r + 0x2000))
		_i=$((_i + 1))
	done
}
