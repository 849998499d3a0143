/* TSV: the delimited rows with a tab and '-' for an empty cell. */
#include "delimited.h"

static const struct delim tsv = { '\t', "-" };

DELIM_FORMATTER(tsv, tsv);
