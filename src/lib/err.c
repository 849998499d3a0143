#include "err.h"
#include "pgwalk.h"
#include "names.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum pgw_status pgw_err_set(struct pgw_err *err, enum pgw_status status,
			    const char *fmt, ...)
{
	va_list ap;

	err->status = status;
	err->absence = status == PGW_E_NODATA ? PGW_ABSENT_OUTSIDE :
						PGW_ABSENT_NONE;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return status;
}

enum pgw_status pgw_err_nodata(struct pgw_err *err, enum pgw_absence why,
			       const char *fmt, ...)
{
	va_list ap;

	err->status = PGW_E_NODATA;
	err->absence = why;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return PGW_E_NODATA;
}

enum pgw_status pgw_err_as_nodata(struct pgw_err *err, enum pgw_absence why)
{
	err->status = PGW_E_NODATA;
	err->absence = why;
	return PGW_E_NODATA;
}

const char *pgw_absence_key(enum pgw_absence why)
{
	static const char *const keys[PGW_NABSENCES] = {
		[PGW_ABSENT_NONE] = "none",
		[PGW_ABSENT_OUTSIDE] = "outside",
		[PGW_ABSENT_EXCLUDED] = "excluded",
		[PGW_ABSENT_TRUNCATED] = "truncated",
		[PGW_ABSENT_MISSING] = "missing",
		[PGW_ABSENT_OTHER_FILE] = "other-file",
		[PGW_ABSENT_CORRUPT] = "corrupt",
	};
	return PGW_NAME(keys, why, "unknown");
}

enum pgw_status pgw_err_prefix(struct pgw_err *err, const char *fmt, ...)
{
	char head[sizeof(err->msg)];
	char old[sizeof(err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	/* Truncation keeps the head (the outermost context) whole. */
	size_t n = strlen(head);
	if (n > sizeof(err->msg) - 3)
		n = sizeof(err->msg) - 3;
	memcpy(err->msg, head, n);
	memcpy(err->msg + n, ": ", 2);
	size_t room = sizeof(err->msg) - n - 2;
	size_t m = strnlen(old, room - 1);
	memcpy(err->msg + n + 2, old, m);
	err->msg[n + 2 + m] = '\0';
	return err->status;
}

const char *pgw_status_name(enum pgw_status status)
{
	static const char *const names[] = {
		[PGW_OK] = "ok",
		[PGW_E_ARG] = "invalid argument",
		[PGW_E_IO] = "I/O error",
		[PGW_E_FORMAT] = "malformed image",
		[PGW_E_UNSUPPORTED] = "unsupported",
		[PGW_E_NOMEM] = "out of memory",
		[PGW_E_NODATA] = "not in image",
		[PGW_E_NOTFOUND] = "not found",
		[PGW_E_LIMIT] = "limit reached",
		[PGW_E_STOPPED] = "stopped by caller",
		[PGW_E_UNMAPPED] = "not mapped",
	};
	return PGW_NAME(names, status, "unknown error");
}
