#!/bin/sh
# Install what building and testing pgwalk needs on Debian 12, skipping
# what is already there.  Needs root (or sudo) only when something is missing.
# groff-base: tests/cli/install.t renders the installed pgwalk(3) with groff.
# makedumpfile: tests/cli/real-filtered-elf.t writes a filtered ELF core.
# python3: tests/cli/delimited.t reads every command's CSV with its csv module.
# libyara-dev: search --yara (loaded with dlopen; pgwalk runs without it);
# yara: the command its tests and benchmark compare with.
# python3-dev, python3-cffi: the Python package (make python, tests/cli/python.t);
# python3-numpy: its test of numpy arrays in and out (never needed to run it).
# libkdumpfile-dev: the addrxlat peer of tests/cli/real-arm64-kdump-peer.t and
# bench/translate*.sh (real dumps only; never linked into pgwalk).
set -eu
pkgs="gcc make libc6-dev libelf-dev zlib1g-dev pkg-config liblzo2-dev libsnappy-dev
libzstd-dev libbpf-dev perl xz-utils binutils jq groff-base makedumpfile
python3 libyara-dev yara python3-dev python3-cffi python3-numpy libkdumpfile-dev"
# --with-fuzz adds clang and its sanitizer/fuzzer runtime (make fuzz).
[ "${1:-}" = --with-fuzz ] && pkgs="$pkgs clang libclang-rt-14-dev valgrind"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing" >&2
if [ "$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi
$sudo apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
