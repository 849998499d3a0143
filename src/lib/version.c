/* The library's version, from the one place it is written (VERSION). */
#include "pgwalk.h"
#include "config.h"   /* PGW_VERSION */

const char *pgw_version(void)
{
	return PGW_VERSION;
}
