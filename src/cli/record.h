/*
 * Records described once, as data.  A record type is its "type" word and
 * its fields, each a name (the JSON key and the CSV/TSV column), a kind
 * (how every format spells it) and where its value lies in the record's
 * struct.  One writer per format family prints any record: JSON
 * (record_json.c), CSV and TSV (record_delim.c); text, whose columns and
 * sentences differ by record, keeps one hand layout per type.
 *
 * A command's output is a table: its record types and the CSV/TSV
 * columns in their frozen order.  Adding a field is one line in the
 * type's field list: the struct gains the member, JSON the key (in list
 * order), CSV and TSV a column at the end; the command sets its value
 * where it fills the record.  docs/output.md says what each field
 * means.
 */
#ifndef PGW_RECORD_H
#define PGW_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct out;
struct line;
struct delim;

/* [va, end): "va", "end" and "size", an end of 0 after a non-zero start
 * spelled 2^64. */
struct rec_span {
	uint64_t va, end;
	bool none;                   /* absent: no range at all */
};

/* A number or a bool that may be absent (has false). */
struct rec_opt {
	uint64_t v;
	bool has;
};

/* A set of bits, each named by key(bit) (bit < n; a bit key() names
 * NULL is left out). */
struct rec_keys {
	uint64_t bits;
	const char *(*key)(unsigned bit);
	unsigned n;
};

/* A rec_keys' bit b named, or NULL. */
static inline const char *rec_key(const struct rec_keys *k, unsigned b)
{
	return k->bits >> b & 1 ? k->key(b) : NULL;
}

/* Counts by key: v[i] named key(i), for i from `from` below `to`. */
struct rec_counts {
	const uint64_t *v;
	unsigned from, to;
	const char *(*key)(unsigned i);
	bool dashes;                 /* keys keep their '-' */
	bool nonzero;                /* only the counts that are not 0 */
};

/* A field whose spelling is its own (check's evidence): the JSON key and
 * value, and the CSV/TSV cell, written by its command's own functions
 * from the value (a const void *). */
struct rec_custom {
	void (*json)(struct out *o, struct line *l, const char *key,
		     const void *v);
	void (*cell)(struct out *o, struct line *l, const struct delim *d,
		     const void *v);
	/* With RF_DETAIL: its words in the detail cell begun at *from
	 * (which a spill of the line moves to 0). */
	void (*detail)(struct out *o, struct line *l, size_t *from,
		       const void *v);
};

/* n bytes that may hold anything, a NUL too (a task's comm). */
struct rec_bytes {
	const char *s;
	size_t n;
};

enum rec_kind {
	RK_HEX,     /* uint64_t, "0x.." (a JSON string) */
	RK_U64,     /* uint64_t, decimal */
	RK_BOOL,    /* bool, true or false */
	RK_WORD,    /* const char *, pgwalk's own vocabulary (keys, names of
		       levels and rules): never escaped; NULL absent */
	RK_TEXT,    /* const char *, anything (strings from the image, words
		       of reasons): escaped as docs/output.md says; NULL
		       absent */
	RK_SPAN,    /* struct rec_span: three fields, va, end and size */
	RK_END,     /* uint64_t, an end: 0 is 2^64 */
	RK_RANGE,   /* struct rec_span, never empty: an end of 0 is 2^64 */
	RK_OHEX,    /* struct rec_opt, spelled as RK_HEX */
	RK_OU64,    /* struct rec_opt, spelled as RK_U64 */
	RK_OBOOL,   /* struct rec_opt, spelled as RK_BOOL */
	RK_BYTES,   /* struct rec_bytes, escaped as RK_TEXT; s NULL absent */
	RK_FLAGS,   /* struct rec_opt, entry flags (PGW_F_*): a JSON array
		       of their names, joined by '|' in a cell */
	RK_KEYS,    /* struct rec_keys: as RK_FLAGS, always there */
	RK_HEXDATA, /* struct rec_bytes, spelled as two hex digits each */
	RK_COUNTS,  /* struct rec_counts: a JSON object of numbers; in the
		       detail cell (RF_DETAIL) name_key=N each */
	RK_OBJECT,  /* const void *, a record of the field's sub type
		       (OBJECT(type) in a field list): a JSON object;
		       in CSV/TSV its fields prefixed "name_"; NULL absent */
	RK_CUSTOM,  /* const void *, spelled by CUSTOM(spelling)'s struct
		       rec_custom */
	RK_GROUP,   /* const void *, a record of the field's sub type
		       (GROUP(type)): its fields in line, as the record's
		       own; NULL: none of them */
};

/* How a field is placed; an absent one is left out unless RF_NULL. */
enum rec_how {
	RF_NULL = 1,       /* absent: JSON null (an empty cell still) */
	RF_JSON = 2,       /* JSON only: no CSV/TSV column */
	RF_DETAIL = 4,     /* CSV/TSV: key=value in the "detail" cell */
	RF_TEXT = 8,       /* for the text layout only: no JSON key, no
			      cell */
};
/* As a field's HOW: its CSV/TSV column has another name than its JSON
 * key (maps' vm_flag_names in the vm_flags column). */
#define RF_COLUMN(c) 0, .col = c
/* Counts in the detail cell as c_KEY=N. */
#define RF_DETAIL_AS(c) RF_DETAIL, .col = c

/* Each kind's C type, for the record structs. */
#define REC_CTYPE_HEX  uint64_t
#define REC_CTYPE_U64  uint64_t
#define REC_CTYPE_BOOL bool
#define REC_CTYPE_WORD const char *
#define REC_CTYPE_TEXT const char *
#define REC_CTYPE_SPAN struct rec_span
#define REC_CTYPE_END uint64_t
#define REC_CTYPE_OHEX struct rec_opt
#define REC_CTYPE_OU64 struct rec_opt
#define REC_CTYPE_OBOOL struct rec_opt
#define REC_CTYPE_BYTES struct rec_bytes
#define REC_CTYPE_RANGE struct rec_span
#define REC_CTYPE_FLAGS struct rec_opt
#define REC_CTYPE_KEYS struct rec_keys
#define REC_CTYPE_HEXDATA struct rec_bytes
#define REC_CTYPE_COUNTS struct rec_counts
#define REC_CTYPE_OBJECT(T) const struct T *
#define REC_CTYPE_GROUP(T) const struct T *
#define REC_CTYPE_CUSTOM(X) const void *
#define RK_CUSTOM(X) RK_CUSTOM, .custom = &X
/* OBJECT(T), GROUP(T) as a field's kind: the kind and the sub type
 * together. */
#define RK_OBJECT(T) RK_OBJECT, .sub = &T##_type
#define RK_GROUP(T) RK_GROUP, .sub = &T##_type

struct rec_field {
	const char *name;
	enum rec_kind kind;
	unsigned how;                /* enum rec_how */
	size_t off;                  /* in the record's struct */
	const struct rec_type *sub;  /* RK_OBJECT, RK_GROUP: its fields */
	const char *col;             /* the CSV/TSV column, or the detail
					words' prefix of counts, when not
					name (RF_COLUMN, RF_DETAIL_AS) */
	const struct rec_custom *custom;   /* RK_CUSTOM */
};

struct rec_type {
	const char *name;            /* "type" of the JSON record, first
					CSV/TSV cell; NULL: the first field
					(a WORD) says it */
	const struct rec_field *field;
	size_t nfields;
	/* The text layout (NULL: text prints nothing of this record). */
	void (*text)(struct out *o, const void *rec);
	bool text_only;              /* a line of text with no record
					(read's end address) */
};

struct rec_table {
	/* The CSV/TSV header as released, comma-separated ("type": the
	 * record's type, when the table has that column): columns are
	 * only ever added at its end, so a reader by position keeps
	 * working.  A field none of them names is appended, in the order
	 * of types and their fields. */
	const char *cols;
	const struct rec_type *const *types;   /* NULL-terminated */
	/* Text's head (NULL: none, or printed by a layout); ctx is
	 * out_table's. */
	void (*text)(struct out *o, const void *ctx);
	/* cols is every column: a field it does not name has none (JSON
	 * only), rather than one appended. */
	bool closed;
};

/*
 * A record type from a field list, an X-macro LIST(F, S) calling
 * F(S, name, KIND, HOW) for each field in JSON order (HOW: 0 or
 * enum rec_how's flags):
 *
 *   #define REGION_FIELDS(F, S) F(S, span, SPAN, 0) F(S, name, TEXT, 0)
 *   RECORD_STRUCT(region_rec, REGION_FIELDS);                 (header)
 *   RECORD_TYPE(region_rec, "region", REGION_FIELDS, text);   (.c)
 *
 * declares struct region_rec { struct rec_span span; const char *name; }
 * and defines region_rec_type.
 */
#define REC_MEMBER(S, N, K, H) REC_CTYPE_##K N;
#define REC_FIELD(S, N, K, H)                                             \
	{ .name = #N, .kind = RK_##K, .how = H, .off = offsetof(struct S, N) },
#define RECORD_STRUCT(S, LIST)                                            \
	struct S { LIST(REC_MEMBER, S) };                                 \
	extern const struct rec_type S##_type
#define RECORD_TYPE(S, TYPE, LIST, TEXT)                                  \
	static const struct rec_field S##_fields[] = { LIST(REC_FIELD, S) }; \
	const struct rec_type S##_type = {                                \
		TYPE, S##_fields,                                         \
		sizeof(S##_fields) / sizeof(S##_fields[0]), TEXT          \
	}

/* Is the field at p (in its record) there: a string not NULL, an
 * optional value set? */
static inline bool rec_present(const struct rec_field *f, const void *p)
{
	switch (f->kind) {
	case RK_WORD:
	case RK_TEXT:
		return *(const char *const *)p != NULL;
	case RK_OHEX:
	case RK_OU64:
	case RK_OBOOL:
	case RK_FLAGS:
		return ((const struct rec_opt *)p)->has;
	case RK_OBJECT:
	case RK_GROUP:
	case RK_CUSTOM:
		return *(const void *const *)p != NULL;
	case RK_SPAN:
	case RK_RANGE:
		return !((const struct rec_span *)p)->none;
	case RK_BYTES:
	case RK_HEXDATA:
		return ((const struct rec_bytes *)p)->s != NULL;
	default:
		return true;
	}
}

/* Count k's key as a JSON key: '-' spelled '_' ("other_file") unless
 * the keys keep theirs. */
static inline void rec_count_key(char *buf, size_t n,
				 const struct rec_counts *c, unsigned k)
{
	const char *key = c->key(k);
	size_t i;

	for (i = 0; i + 1 < n && key[i]; i++)
		buf[i] = key[i] == '-' && !c->dashes ? '_' : key[i];
	buf[i] = '\0';
}

/* The type's name: its first field's value when the type has none. */
static inline const char *rec_type_name(const struct rec_type *t,
					const void *rec)
{
	return t->name ? t->name :
	       *(const char *const *)((const char *)rec + t->field[0].off);
}

/* The bytes in hex, spilling l to o as it fills (record_json.c). */
void rec_hexdata(struct out *o, struct line *l, const struct rec_bytes *b);

/* A table's records begin (CSV/TSV: the header row; text: its head,
 * given ctx). */
void out_table(struct out *o, const struct rec_table *t, const void *ctx);
/* One record of type t in the current table, in o's format. */
void out_record(struct out *o, const struct rec_type *t, const void *rec);

#endif
