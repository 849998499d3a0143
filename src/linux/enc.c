/*
 * Memory encryption's bits in the entries, from what is declared: the
 * caller's (--sme-mask, --shared-mask), then VMCOREINFO NUMBER(sme_mask),
 * which every x86-64 kernel since 4.14 writes (0 without SME; SEV guests
 * set sme_me_mask too).  What neither declares, enc_infer.c looks for in
 * the tables.  Intel TDX's shared bit is in no VMCOREINFO: only the
 * caller can give it.
 */
#include "../lib/err.h"
#include "linux.h"
#include "../lib/names.h"

#include <stdio.h>
#include <string.h>

const char *pgw_enc_source_key(enum pgw_enc_source src)
{
	static const char *const keys[] = {
		[PGW_ENC_NONE] = "none",
		[PGW_ENC_OPTION] = "option",
		[PGW_ENC_VMCOREINFO] = "vmcoreinfo",
		[PGW_ENC_INFERRED] = "inferred",
	};
	return PGW_NAME(keys, src, "?");
}

bool linux_enc_bit_ok(uint64_t mask)
{
	return mask == 0 || ((mask & (mask - 1)) == 0 &&
			     mask >= (UINT64_C(1) << 12) &&
			     mask < (UINT64_C(1) << 52));
}

unsigned linux_enc_bit(uint64_t mask)
{
	return mask ? (unsigned)__builtin_ctzll(mask) : 0;
}

/* "C-bit 47 (0x800000000000)", or "none". */
static void describe_bit(char *buf, size_t n, const char *what, uint64_t m)
{
	if (m)
		snprintf(buf, n, "%s %u (0x%llx)", what, linux_enc_bit(m),
			 (unsigned long long)m);
	else
		snprintf(buf, n, "no %s", what);
}

/* The caller's bits, each one bit of the address field or 0. */
static enum pgw_status from_request(const struct pgw_enc_request *req,
				    struct pgw_enc_choice *ch,
				    struct pgw_err *err)
{
	static const char *const opt[2] = { "--sme-mask", "--shared-mask" };
	const bool have[2] = { req->have_enc, req->have_shared };
	const uint64_t val[2] = { req->enc, req->shared };

	for (int i = 0; i < 2; i++)
		if (have[i] && !linux_enc_bit_ok(val[i]))
			return pgw_err_set(err, PGW_E_ARG,
					   "%s=0x%llx: not one bit of an "
					   "entry's address field (bits "
					   "12..51), nor 0", opt[i],
					   (unsigned long long)val[i]);
	if (req->have_enc && req->have_shared && req->enc &&
	    req->enc == req->shared)
		return pgw_err_set(err, PGW_E_ARG, "--sme-mask and "
				   "--shared-mask name the same bit");
	if (req->have_shared) {
		ch->bits.shared = req->shared;
		ch->shared_source = PGW_ENC_OPTION;
	}
	if (req->have_enc) {
		char bit[48];
		describe_bit(bit, sizeof(bit), "C-bit", req->enc);
		ch->bits.enc = req->enc;
		ch->source = PGW_ENC_OPTION;
		snprintf(ch->why, sizeof(ch->why), "--sme-mask=0x%llx: %s",
			 (unsigned long long)req->enc, bit);
	}
	return PGW_OK;
}

/* NUMBER(sme_mask), when it is a mask Linux could have written. */
static void from_vmcoreinfo(struct pgw_image *img, struct pgw_enc_choice *ch)
{
	const char *text = pgw_vmcoreinfo_get(img, "NUMBER(sme_mask)");
	struct pgw_err ignored;
	uint64_t v;
	char bit[48];

	if (!text) {
		snprintf(ch->why, sizeof(ch->why),
			 "no VMCOREINFO NUMBER(sme_mask)");
		return;
	}
	if (pgw_vmcoreinfo_number(img, "NUMBER(sme_mask)", &v, &ignored) !=
		    PGW_OK ||
	    !linux_enc_bit_ok(v) || (v && v == ch->bits.shared)) {
		/* A value no kernel writes: not trusted with the frames. */
		snprintf(ch->why, sizeof(ch->why),
			 "VMCOREINFO NUMBER(sme_mask)=%.40s ignored: not one "
			 "bit of the address field", text);
		return;
	}
	describe_bit(bit, sizeof(bit), "C-bit", v);
	ch->bits.enc = v;
	ch->source = PGW_ENC_VMCOREINFO;
	snprintf(ch->why, sizeof(ch->why), "VMCOREINFO NUMBER(sme_mask)=%s: %s",
		 text, v ? bit : "no SME");
}

enum pgw_status linux_enc_declared(struct pgw_image *img,
				   const struct pgw_enc_request *req,
				   struct pgw_enc_choice *ch,
				   struct pgw_err *err)
{
	enum pgw_status st;

	memset(ch, 0, sizeof(*ch));
	st = from_request(req, ch, err);
	if (st == PGW_OK && ch->source == PGW_ENC_NONE)
		from_vmcoreinfo(img, ch);
	return st;
}

void linux_enc_say_shared(struct pgw_enc_choice *ch)
{
	size_t n = strlen(ch->why);
	char bit[48];

	if (ch->shared_source != PGW_ENC_OPTION || n + 2 >= sizeof(ch->why))
		return;
	describe_bit(bit, sizeof(bit), "shared bit", ch->bits.shared);
	snprintf(ch->why + n, sizeof(ch->why) - n, "; --shared-mask=0x%llx: %s",
		 (unsigned long long)ch->bits.shared, bit);
}
