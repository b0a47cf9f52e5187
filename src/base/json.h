/* json.h: a small JSON reader (a tree in an arena), for golden files and
 * configuration. Numbers are doubles; strings are decoded without \u
 * escapes beyond ASCII. */
#ifndef TC_JSON_H
#define TC_JSON_H

#include "base/base.h"

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } JsonKind;

typedef struct Json Json;
struct Json {
	JsonKind kind;
	double number;        /* JSON_NUMBER, JSON_BOOL (0 or 1) */
	const char *string;   /* JSON_STRING */
	Json **items;         /* JSON_ARRAY elements, JSON_OBJECT values */
	const char **keys;    /* JSON_OBJECT keys */
	int len;
};

/* NULL on a syntax error, with the byte offset in *error_at. */
Json *json_parse(Arena *a, const char *text, size_t len, size_t *error_at);
Json *json_get(const Json *obj, const char *key);   /* NULL when absent */
Json *json_at(const Json *arr, int i);              /* NULL when out of range */
double json_num(const Json *j, double fallback);
const char *json_str(const Json *j, const char *fallback);

#endif
