/* CSV (RFC 4180): the delimited rows with ',' and an empty cell empty. */
#include "delimited.h"

static const struct delim csv = { ',', "" };

DELIM_FORMATTER(csv, csv);
