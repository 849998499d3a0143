/*
 * Building a struct pgw_err: how the library says what went wrong.
 * Internal: a caller reads errors, it does not make them.
 */
#ifndef PGW_LIB_ERR_H
#define PGW_LIB_ERR_H

#include "pgwalk.h"

/* Set err and return status; printf-checked.  errnum is left as it was
 * (set it first where the OS said no); absence becomes OUTSIDE for
 * PGW_E_NODATA, else NONE. */
enum pgw_status pgw_err_set(struct pgw_err *err, enum pgw_status status,
			    const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Set err to PGW_E_NODATA with its reason; returns PGW_E_NODATA. */
enum pgw_status pgw_err_nodata(struct pgw_err *err, enum pgw_absence why,
			       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Make the error already in err PGW_E_NODATA with reason why, keeping its
 * message (a damaged page is absent, not an error of the whole image). */
enum pgw_status pgw_err_as_nodata(struct pgw_err *err, enum pgw_absence why);
/* Prepend "context: " to the message already in err (the end of the old
 * message is cut when too long, never the context); returns
 * err->status. */
enum pgw_status pgw_err_prefix(struct pgw_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
