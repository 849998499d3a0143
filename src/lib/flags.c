#include "pgwalk.h"

const char *pgw_flag_name(unsigned bit_index)
{
	static const char *const names[PGW_NFLAGS] = {
		"present", "rw", "user", "pwt", "pcd", "accessed", "dirty",
		"ps", "global", "pat", "nx",
	};
	return bit_index < PGW_NFLAGS ? names[bit_index] : "?";
}
