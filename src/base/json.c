/* json.c: a recursive-descent JSON reader. */
#include "base/json.h"

#include <stdlib.h>
#include <string.h>

typedef struct Reader {
	Arena *a;
	const char *p, *start, *end;
	bool failed;
	int depth;
} Reader;

static void skip_space(Reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\t' || *r->p == '\r'))
		r->p++;
}

static bool eat(Reader *r, char c)
{
	skip_space(r);
	if (r->p < r->end && *r->p == c) {
		r->p++;
		return true;
	}
	return false;
}

static Json *fail(Reader *r)
{
	r->failed = true;
	return NULL;
}

static const char *read_string(Reader *r)
{
	if (!eat(r, '"'))
		return NULL;
	Buf b = {0};
	while (r->p < r->end && *r->p != '"') {
		char c = *r->p++;
		if (c == '\\' && r->p < r->end) {
			char e = *r->p++;
			c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
			if (e == 'u') {
				if (r->end - r->p < 4) {
					buf_free(&b);
					return NULL;
				}
				char hex[5] = {r->p[0], r->p[1], r->p[2], r->p[3], 0};
				c = (char)(strtol(hex, NULL, 16) & 0x7f);
				r->p += 4;
			}
		}
		buf_putc(&b, c);
	}
	if (r->p >= r->end) {
		buf_free(&b);
		return NULL;
	}
	r->p++;
	char *s = arena_strndup(r->a, buf_str(&b), b.len);
	buf_free(&b);
	return s;
}

static Json *value(Reader *r);

static Json *read_list(Reader *r, bool object)
{
	Json *j = arena_alloc(r->a, sizeof *j);
	j->kind = object ? JSON_OBJECT : JSON_ARRAY;
	Vec items = {0}, keys = {0};
	char close = object ? '}' : ']';
	if (!eat(r, close)) {
		do {
			if (object) {
				const char *k = read_string(r);
				if (!k || !eat(r, ':'))
					break;
				vec_push(&keys, (void *)k);
			}
			Json *v = value(r);
			if (!v)
				break;
			vec_push(&items, v);
		} while (eat(r, ','));
		if (!eat(r, close))
			r->failed = true;
	}
	j->len = items.len;
	j->items = arena_alloc(r->a, sizeof(Json *) * (size_t)(items.len + 1));
	if (items.len)
		memcpy(j->items, items.data, sizeof(Json *) * (size_t)items.len);
	if (object) {
		j->keys = arena_alloc(r->a, sizeof(char *) * (size_t)(keys.len + 1));
		if (keys.len)
			memcpy(j->keys, keys.data, sizeof(char *) * (size_t)keys.len);
	}
	vec_free(&items);
	vec_free(&keys);
	return r->failed ? NULL : j;
}

static Json *value(Reader *r)
{
	skip_space(r);
	if (r->p >= r->end || ++r->depth > 200)
		return fail(r);
	Json *j = NULL;
	char c = *r->p;
	if (c == '{' || c == '[') {
		r->p++;
		j = read_list(r, c == '{');
	} else if (c == '"') {
		const char *s = read_string(r);
		if (!s)
			return fail(r);
		j = arena_alloc(r->a, sizeof *j);
		j->kind = JSON_STRING;
		j->string = s;
	} else if (!strncmp(r->p, "true", 4) || !strncmp(r->p, "false", 5) || !strncmp(r->p, "null", 4)) {
		j = arena_alloc(r->a, sizeof *j);
		j->kind = c == 'n' ? JSON_NULL : JSON_BOOL;
		j->number = c == 't';
		r->p += c == 'f' ? 5 : 4;
	} else {
		char *end;
		double d = strtod(r->p, &end);
		if (end == r->p || end > r->end)
			return fail(r);
		r->p = end;
		j = arena_alloc(r->a, sizeof *j);
		j->kind = JSON_NUMBER;
		j->number = d;
	}
	r->depth--;
	return j;
}

Json *json_parse(Arena *a, const char *text, size_t len, size_t *error_at)
{
	Reader r = {.a = a, .p = text, .start = text, .end = text + len};
	Json *j = value(&r);
	skip_space(&r);
	if (!j || r.failed || r.p != r.end) {
		if (error_at)
			*error_at = (size_t)(r.p - text);
		return NULL;
	}
	return j;
}

Json *json_get(const Json *obj, const char *key)
{
	if (!obj || obj->kind != JSON_OBJECT)
		return NULL;
	for (int i = 0; i < obj->len; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

Json *json_at(const Json *arr, int i)
{
	if (!arr || (arr->kind != JSON_ARRAY && arr->kind != JSON_OBJECT) || i < 0 || i >= arr->len)
		return NULL;
	return arr->items[i];
}

double json_num(const Json *j, double fallback)
{
	return j && (j->kind == JSON_NUMBER || j->kind == JSON_BOOL) ? j->number : fallback;
}

const char *json_str(const Json *j, const char *fallback)
{
	return j && j->kind == JSON_STRING ? j->string : fallback;
}
