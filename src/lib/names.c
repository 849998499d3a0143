/* The names of the library's vocabularies: flags, non-present kinds, stops. */
#include "pgwalk.h"
#include "names.h"

const char *pgw_flag_name(unsigned bit_index)
{
	static const char *const names[PGW_NFLAGS] = {
		"present", "rw", "user", "pwt", "pcd", "accessed", "dirty",
		"ps", "global", "pat", "nx", "enc", "shared", "pxn", "uxn",
		"cont",
	};
	return PGW_NAME(names, bit_index, "?");
}

const char *pgw_np_kind_key(enum pgw_np_kind kind)
{
	static const char *const keys[] = {
		[PGW_NP_NONE] = "none",
		[PGW_NP_PROTNONE] = "protnone",
		[PGW_NP_SWAP] = "swap",
		[PGW_NP_MIGRATION] = "migration",
		[PGW_NP_DEVICE] = "device",
		[PGW_NP_HWPOISON] = "hwpoison",
		[PGW_NP_OTHER] = "other",
		[PGW_NP_SWAP_UNKNOWN] = "swap-layout-unknown",
	};
	return PGW_NAME(keys, kind, "other");
}

bool pgw_np_kind_numbered(enum pgw_np_kind kind)
{
	return kind == PGW_NP_SWAP || kind == PGW_NP_MIGRATION ||
	       kind == PGW_NP_DEVICE || kind == PGW_NP_HWPOISON;
}

const char *pgw_stop_key(enum pgw_stop stop)
{
	static const char *const keys[PGW_NSTOPS] = {
		[PGW_STOP_OK] = "ok",
		[PGW_STOP_NOT_PRESENT] = "not-present",
		[PGW_STOP_NONCANONICAL] = "non-canonical",
		[PGW_STOP_RESERVED] = "reserved-bits",
		[PGW_STOP_TABLE_NOT_IN_IMAGE] = "table-not-in-image",
		[PGW_STOP_TABLE_BEYOND_MEMORY] = "table-beyond-memory",
		[PGW_STOP_CYCLE] = "cycle",
		[PGW_STOP_BAD_LEAF] = "bad-leaf",
		[PGW_STOP_READ_ERROR] = "read-error",
		[PGW_STOP_BEYOND_SPACE] = "beyond-address-space",
	};
	return PGW_NAME(keys, stop, "unknown");
}

const char *pgw_stop_text(enum pgw_stop stop)
{
	static const char *const text[PGW_NSTOPS] = {
		[PGW_STOP_OK] = "ok",
		[PGW_STOP_NOT_PRESENT] = "not present",
		[PGW_STOP_NONCANONICAL] = "non-canonical address",
		[PGW_STOP_RESERVED] = "reserved bits set",
		[PGW_STOP_TABLE_NOT_IN_IMAGE] = "page table not in image",
		[PGW_STOP_TABLE_BEYOND_MEMORY] =
			"page table beyond the end of physical memory",
		[PGW_STOP_CYCLE] = "page-table cycle",
		[PGW_STOP_BAD_LEAF] = "table entry at the lowest level",
		[PGW_STOP_READ_ERROR] = "read error",
		[PGW_STOP_BEYOND_SPACE] = "beyond the address space",
	};
	return PGW_NAME(text, stop, "unknown");
}
