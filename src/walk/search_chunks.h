/*
 * pgw_search of physical memory on the image's threads (pgw_image_open_opts'
 * threads, the CLI's --threads).  Strings, their wide forms and hex are
 * found wherever they lie, whatever the windows the scanner reads in:
 * pieces of frames, each a little past its end (search_chunks.c).
 * Regular expressions and YARA rules find what they find in the one
 * scanner's windows: pieces cut where its windows begin
 * (search_stream.c).
 */
#ifndef PGW_SEARCH_CHUNKS_H
#define PGW_SEARCH_CHUNKS_H

#include "pgwalk.h"
#include "search_scan.h"

/*
 * Every frame of ranges (sorted by start; a frame once, in address
 * order, as the one-thread search feeds them) searched on threads for
 * sc's patterns: the hits reach sc->hit in the order one scanner would
 * give them, from the calling thread; the bytes searched are added to
 * sc->bytes, the bytes not in the image to not_in_image by reason, lost
 * hits set sc->oom.  *stopped: the caller's callback asked to stop,
 * search no further.
 * False, having searched nothing, when the patterns, the image or the
 * machine do not allow it: the caller searches alone.
 */
bool search_phys_threads(struct pgw_image *img,
			 const struct pgw_phys_range *ranges, size_t n,
			 struct scanner *sc,
			 uint64_t not_in_image[PGW_NABSENCES],
			 const int *stopped);

#endif
