#include "err.h"
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum pgw_status pgw_grow(void *arrp, size_t n, size_t elem,
			 struct pgw_err *err)
{
	void *arr;

	/* Full exactly when n is 0 or a power of two from 4 on. */
	if (n >= 4 ? (n & (n - 1)) != 0 : n != 0)
		return PGW_OK;
	size_t cap = n ? n * 2 : 4;
	if (cap > SIZE_MAX / elem)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	memcpy(&arr, arrp, sizeof(arr));
	arr = realloc(arr, cap * elem);
	if (!arr)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	memcpy(arrp, &arr, sizeof(arr));
	return PGW_OK;
}
