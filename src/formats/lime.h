/*
 * The 32-byte range header LiME and AVML share (little-endian):
 *   u32 magic    0x4C694D45 LiME ("EMiL" on disk), 0x4C4D5641 AVML ("AVML")
 *   u32 version  1 for LiME, 2 for AVML
 *   u64 start    first physical address of the range
 *   u64 end      last physical address of the range (inclusive)
 *   u64 reserved
 * LiME follows each header with end - start + 1 raw bytes; AVML with a
 * snappy-framed stream of them and an 8-byte length of that stream.
 */
#ifndef PGW_LIME_H
#define PGW_LIME_H

#include "source.h"

#define PGW_LIME_MAGIC 0x4C694D45u
#define PGW_AVML_MAGIC 0x4C4D5641u
#define PGW_LIME_HEADER_SIZE 32

struct pgw_lime_header {
	uint32_t magic, version;
	uint64_t start;
	uint64_t size;       /* end - start + 1 */
};

/* Is this a header of the given magic and version? */
bool pgw_lime_probe(const uint8_t *head, size_t len, uint32_t magic,
		    uint32_t version);
/* Read and check the header at off (start <= end, no wrap). */
enum pgw_status pgw_lime_header_read(const struct pgw_source *src,
				     uint64_t off, struct pgw_lime_header *h,
				     struct pgw_err *err);

#endif
