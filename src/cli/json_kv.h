/*
 * JSON fields, for every writer of JSON records (record_json.c,
 * fast_rows.c, a command's own spellings): one spelling of an address, a
 * count, a string and a bool after the record's first field.
 */
#ifndef PGW_JSON_KV_H
#define PGW_JSON_KV_H

#include "emit.h"
#include "output.h"

/* ,"key":"0x..." */
static inline void kv_hex(struct line *l, const char *key, uint64_t v)
{
	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":\"");
	emit_hex(l, v);
	emit_char(l, '"');
}

/* ,"key":N */
static inline void kv_u64(struct line *l, const char *key, uint64_t v)
{
	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":");
	emit_u64(l, v);
}

/* ,"key":"value" (a short string: keys, names, reasons) */
static inline void kv_str(struct line *l, const char *key, const char *val)
{
	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":\"");
	emit_json_str(l, val);
	emit_char(l, '"');
}

static inline void kv_bool(struct line *l, const char *key, bool v)
{
	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, v ? "\":true" : "\":false");
}

/* "key":"value" with the value escaped however long (strings from the
 * image), a comma before it unless first. */
static inline void kv_long(struct out *o, struct line *l, bool first,
		    const char *key, const char *val)
{
	if (!first)
		emit_char(l, ',');
	emit_char(l, '"');
	emit_json_str(l, key);
	emit_str(l, "\":\"");
	emit_long(l, o->f, val, emit_json_strn);
	emit_char(l, '"');
}

/* ,"key":null */
static inline void kv_null(struct line *l, const char *key)
{
	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":null");
}

/* Any record described by a schema (record_json.c). */
void json_record(struct out *o, const struct rec_type *t, const void *rec);

#endif
