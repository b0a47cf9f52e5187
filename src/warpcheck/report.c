/* report.c: findings as GCC-style text, JSON or SARIF 2.1.0, and --fix:
 * the edits applied to a copy of the text and a unified diff of it. */
#include "warpcheck/warpcheck.h"

#include "base/json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void wc_report_text_buf(Buf *b, const WcFile *f)
{
	for (int i = 0; i < f->nfinds; i++) {
		const WcFinding *fd = &f->finds[i];
		buf_printf(b, "%s:%d:%d: %s: %s [%s %s]\n", f->src.name, fd->line, fd->col, fd->note ? "note" : "warning",
			fd->msg, fd->id, fd->name);
		/* The source line and a caret, as every diagnostic shows them;
		 * findings already know their line, so nothing rescans the file. */
		diag_show_line(b, &f->src, fd->off, fd->line);
		buf_printf(b, "      | fix: %s\n", fd->fix);
	}
}

void wc_report_text(FILE *out, const WcFile *f)
{
	Buf b = {0};
	wc_report_text_buf(&b, f);
	fwrite(b.data ? b.data : "", 1, b.len, out);
	buf_free(&b);
}

/* Bytes a JSON string can hold as they are. */
static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/* A JSON string; runs of plain bytes are copied at once. */
static void put_jstr(Buf *b, const char *s)
{
	buf_putc(b, '"');
	while (*s) {
		const char *run = s;
		while (plain((unsigned char)*s))
			s++;
		buf_putn(b, run, (size_t)(s - run));
		if (!*s)
			break;
		unsigned char c = (unsigned char)*s++;
		if (c == '"' || c == '\\')
			buf_printf(b, "\\%c", c);
		else
			buf_printf(b, "\\u%04x", c);  /* paths may hold any byte */
	}
	buf_putc(b, '"');
}

/* A decimal integer, without printf. */
static void put_int(Buf *b, int v)
{
	char tmp[16];
	int k = sizeof tmp;
	unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
	do
		tmp[--k] = (char)('0' + u % 10);
	while ((u /= 10) && k > 1);
	if (v < 0)
		tmp[--k] = '-';
	buf_putn(b, tmp + k, sizeof tmp - (size_t)k);
}

static void put_hex(Buf *b, uint64_t v)
{
	char tmp[17];
	for (int k = 15; k >= 0; k--, v >>= 4)
		tmp[k] = "0123456789abcdef"[v & 15];
	tmp[16] = '\0';
	buf_puts(b, tmp);
}

void wc_report_json_file(Buf *b, const WcFile *f, bool *first)
{
	Buf name = {0};  /* the path, escaped once for all of the file's findings */
	if (f->nfinds)
		put_jstr(&name, f->src.name);
	for (int i = 0; i < f->nfinds; i++) {
		const WcFinding *fd = &f->finds[i];
		buf_puts(b, *first ? "\n  {" : ",\n  {");
		*first = false;
		buf_puts(b, "\"file\": ");
		buf_putn(b, name.data, name.len);
		buf_puts(b, ", \"line\": ");
		put_int(b, fd->line);
		buf_puts(b, ", \"col\": ");
		put_int(b, fd->col);
		buf_puts(b, ", \"id\": \"");
		buf_puts(b, fd->id);
		buf_puts(b, "\", \"name\": \"");
		buf_puts(b, fd->name);
		buf_puts(b, fd->note ? "\", \"severity\": \"note\", \"message\": " : "\", \"severity\": \"warning\", \"message\": ");
		put_jstr(b, fd->msg);
		buf_puts(b, ", \"fix\": ");
		put_jstr(b, fd->fix);
		buf_puts(b, fd->has_edit ? ", \"autofix\": true" : ", \"autofix\": false");
		buf_puts(b, ", \"fingerprint\": \"");
		put_hex(b, wc_fingerprint(f, i));
		buf_puts(b, "\"}");
	}
	buf_free(&name);
}

static const struct {
	const char *id, *name, *help;
} rules[] = {
	{"H1", "loop-trip-count", "A shuffle reduction or scan whose trip count is fixed for 32 lanes (offsets 16..1) "
		"leaves lanes 32..63 of a 64-lane wavefront out. Start at warpSize / 2 or bound the loop by warpSize."},
	{"H2", "lane-mask", "A 32-bit full mask (0xffffffff) in a _sync shuffle, vote or __syncwarp names lanes 0..31 "
		"only; HIP 6.2+ wants a 64-bit mask. Use ~0ull, __activemask() kept in 64 bits, or the mask-less intrinsic."},
	{"H3", "lane-index", "Lane and warp ids computed with 32 (tid % 32, tid >> 5), per-warp storage of 32 and "
		"'first warp' tests (tid < 32) assume 32-lane warps. Use warpSize, or keep the whole scheme 32-lane."},
	{"H4", "ballot-width", "A ballot or active mask is 64 bits on a 64-lane wavefront: kept in 32 bits, or counted "
		"with __popc/__ffs, the upper lanes are lost. Use unsigned long long, __popcll, __ffsll, 1ull << lane."},
	{"H5", "lane-constant", "Lane constants from 32 (lane == 31, __shfl(v, 31), lane < 16 as half a warp) name the "
		"wrong lane on 64-lane wavefronts. Write them from warpSize."},
	{"H6", "host-warp-size", "Host code that sizes launches or memory with a compile-time warp size of 32 (or uses "
		"warpSize, which is no host constant) is wrong on wave64 devices. Query hipDeviceAttributeWarpSize."},
	{"H7", "compile-time-warp-size", "warpSize is not a compile-time constant in HIP, and __AMDGCN_WAVEFRONT_SIZE "
		"is deprecated: an array bound, constexpr, static_assert or template argument needs a per-target "
		"constant or an upper bound."},
	{"H8", "arch-width", "The warp width chosen from the architecture is wrong for some chips: 64 for every AMD "
		"target (RDNA is 32), 32 for every AMD target (CDNA is 64), a chip list that misses chips, or a "
		"per-target macro tested in host code (only the device pass defines it)."},
	{"H9", "library-warp-width", "A cub/hipcub warp collective whose logical width disagrees with how its "
		"TempStorage is sized or indexed."},
	{"H10", "partial-wave-mask", "A full lane mask in code that only part of a wavefront runs names lanes that "
		"are not there. Use __activemask() (64-bit) or restructure the branch."},
	{"H11", "shuffle-width", "A shuffle with no width whose lane is computed modulo 32 reads across the 32-lane "
		"halves of a 64-lane wavefront. Pass the width 32, or make the algorithm wave-size generic."},
	{"H12", "block-size", "A block size or launch bound that is a multiple of 32 but not of 64 leaves a partial "
		"wavefront. Use multiples of the warp size queried at run time."},
	{"H13", "mask-overflow", "Mask arithmetic that overflows at 64 (1 << warpSize, (1ull << width) - 1 with "
		"width 64). Special-case 64 or use ~0ull >> (64 - width)."},
	{"H14", "sub-warp-width", "A sub-warp helper whose width parameter is bounded by the device's width, given "
		"the bound as it is with 32 lanes (16 for L <= kWarpSize / 2): on a 64-lane wavefront its widest step "
		"is never taken. Pass the bound for the device's width or choose it on the warp size."},
	{"H15", "wavefront-multiple", "A template instantiated with constants that give a count of whole warps a "
		"value that is a multiple of 32 but not of 64: the thread count of a BlockLoad/BlockStore with "
		"WARP_TRANSPOSE, or a parameter the template divides by the device's width (32 / 64 is 0). Use whole "
		"wavefronts or choose the value on the warp size."},
};

const char *wc_rule_help(const char *id)
{
	for (size_t k = 0; k < TC_COUNT(rules); k++)
		if (strcmp(rules[k].id, id) == 0)
			return rules[k].help;
	return "";
}

void wc_sarif_rules(Buf *b)
{
	for (size_t k = 0; k < TC_COUNT(rules); k++) {
		buf_puts(b, k ? ",\n          {\"id\": \"" : "\n          {\"id\": \"");
		buf_puts(b, rules[k].id);
		buf_puts(b, "\", \"name\": \"");
		buf_puts(b, rules[k].name);
		buf_puts(b, "\", \"shortDescription\": {\"text\": ");
		put_jstr(b, rules[k].name);
		buf_puts(b, "}, \"fullDescription\": {\"text\": ");
		put_jstr(b, rules[k].help);
		buf_puts(b, "}, \"help\": {\"text\": ");
		put_jstr(b, rules[k].help);
		buf_puts(b, "}, \"defaultConfiguration\": {\"level\": \"warning\"}}");
	}
}

/* Line and column (1-based) of a byte offset, by counting from the
 * finding whose line is known: fixes lie near their finding. */
static void edit_pos(const WcFile *f, const WcFinding *fd, uint32_t off, int *line, int *col)
{
	int ln = fd->line;
	uint32_t at = fd->off - (uint32_t)(fd->col - 1);
	const char *s = f->src.text;
	while (at < off) {
		uint32_t nl = at;
		while (nl < off && s[nl] != '\n')
			nl++;
		if (nl >= off)
			break;
		at = nl + 1;
		ln++;
	}
	while (at > off) {
		uint32_t p = at - 1;
		while (p > 0 && s[p - 1] != '\n')
			p--;
		at = p;
		ln--;
	}
	*line = ln;
	*col = (int)(off - at) + 1;
}

uint64_t wc_fingerprint(const WcFile *f, int i)
{
	const WcFinding *fd = &f->finds[i];
	uint64_t h = base_hash_fnv1a(fd->id, strlen(fd->id), HASH_SEED);
	const char *s = f->src.text;
	uint32_t a = fd->off - (uint32_t)(fd->col - 1), e = fd->off;
	while (e < f->src.len && s[e] != '\n')
		e++;
	for (uint32_t k = a; k < e; k++)
		if (s[k] != ' ' && s[k] != '\t' && s[k] != '\r')
			h = base_hash_fnv1a(s + k, 1, h);
	/* the findings are in source order: those on the same line come just
	 * before (a scan of all of them was quadratic in the findings) */
	int n = 0;
	for (int k = i - 1; k >= 0 && f->finds[k].line == fd->line; k--)
		n += strcmp(f->finds[k].id, fd->id) == 0;
	return base_hash_fnv1a(&n, sizeof n, h);
}

void wc_report_sarif_file(Buf *b, const WcFile *f, bool *first)
{
	Buf m = {0}, uri = {0};
	if (f->nfinds)
		put_jstr(&uri, f->src.name);
	for (int i = 0; i < f->nfinds; i++) {
		const WcFinding *fd = &f->finds[i];
		buf_puts(b, *first ? "\n        {" : ",\n        {");
		*first = false;
		buf_puts(b, "\"ruleId\": \"");
		buf_puts(b, fd->id);
		buf_puts(b, fd->note ? "\", \"level\": \"note\", \"message\": {\"text\": " : "\", \"level\": \"warning\", \"message\": {\"text\": ");
		m.len = 0;
		buf_printf(&m, "%s [%s %s]; fix: %s", fd->msg, fd->id, fd->name, fd->fix);
		put_jstr(b, buf_str(&m));
		buf_puts(b, "}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
		buf_putn(b, uri.data, uri.len);
		buf_puts(b, "}, \"region\": {\"startLine\": ");
		put_int(b, fd->line);
		buf_puts(b, ", \"startColumn\": ");
		put_int(b, fd->col);
		buf_puts(b, "}}}], \"partialFingerprints\": {\"warpcheck/v1\": \"");
		put_hex(b, wc_fingerprint(f, i));
		buf_puts(b, "\"}");
		if (fd->has_edit && !fd->note) {
			int l0, c0, l1, c1;
			edit_pos(f, fd, fd->eoff, &l0, &c0);
			edit_pos(f, fd, fd->eoff + fd->elen, &l1, &c1);
			buf_puts(b, ", \"fixes\": [{\"description\": {\"text\": ");
			put_jstr(b, fd->fix);
			buf_puts(b, "}, \"artifactChanges\": [{\"artifactLocation\": {\"uri\": ");
			buf_putn(b, uri.data, uri.len);
			buf_puts(b, "}, \"replacements\": [{\"deletedRegion\": {\"startLine\": ");
			put_int(b, l0);
			buf_puts(b, ", \"startColumn\": ");
			put_int(b, c0);
			buf_puts(b, ", \"endLine\": ");
			put_int(b, l1);
			buf_puts(b, ", \"endColumn\": ");
			put_int(b, c1);
			buf_puts(b, "}, \"insertedContent\": {\"text\": ");
			put_jstr(b, fd->repl);
			buf_puts(b, "}}]}]}]");
		}
		buf_puts(b, "}");
	}
	buf_free(&m);
	buf_free(&uri);
}

/* ---- --baseline ---- */

struct WcBaseline {
	uint64_t *keys;   /* sorted: hash of file and fingerprint, or of file, id and line */
	int n;
};

static uint64_t base_key(const char *file, uint64_t fp)
{
	return base_hash_fnv1a(file, strlen(file), fp ^ 0x9e3779b97f4a7c15ull);
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

WcBaseline *wc_baseline_load(const char *path, Diag *d)
{
	size_t len;
	char *text = file_read(path, &len);
	if (!text) {
		diag_plain(d, DIAG_ERROR, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	Arena a = {0};
	size_t at = 0;
	Json *root = json_parse(&a, text, len, &at);
	Json *list = root ? json_get(root, "findings") : NULL;
	if (!list || list->kind != JSON_ARRAY) {
		Source src = {.name = path, .text = text, .len = len};
		diag_at(d, DIAG_ERROR, &src, root ? 0 : at, "%s", root ? "not a warpcheck --format json report (no \"findings\")"
			: "invalid JSON");
		arena_free(&a);
		free(text);
		return NULL;
	}
	WcBaseline *b = base_calloc(1, sizeof *b);
	b->keys = base_malloc((size_t)(list->len + 1) * sizeof *b->keys);
	for (int k = 0; k < list->len; k++) {
		const char *file = json_str(json_get(list->items[k], "file"), "");
		const char *fp = json_str(json_get(list->items[k], "fingerprint"), NULL);
		if (!fp)
			continue;
		b->keys[b->n++] = base_key(file, strtoull(fp, NULL, 16));
	}
	qsort(b->keys, (size_t)b->n, sizeof *b->keys, by_u64);
	arena_free(&a);
	free(text);
	return b;
}

void wc_baseline_filter(const WcBaseline *b, WcFile *f)
{
	int k = 0;
	uint64_t *fps = base_malloc((size_t)(f->nfinds + 1) * sizeof *fps);
	for (int i = 0; i < f->nfinds; i++)
		fps[i] = wc_fingerprint(f, i);  /* before any is dropped: the counts see them all */
	for (int i = 0; i < f->nfinds; i++) {
		uint64_t key = base_key(f->src.name, fps[i]);
		if (!bsearch(&key, b->keys, (size_t)b->n, sizeof key, by_u64))
			f->finds[k++] = f->finds[i];
	}
	f->nfinds = k;
	free(fps);
}

void wc_baseline_free(WcBaseline *b)
{
	if (!b)
		return;
	free(b->keys);
	free(b);
}

int wc_warnings(const WcFile *f)
{
	int n = 0;
	for (int i = 0; i < f->nfinds; i++)
		n += !f->finds[i].note;
	return n;
}

static int by_edit_offset(const void *a, const void *b)
{
	const WcFinding *x = *(const WcFinding *const *)a, *y = *(const WcFinding *const *)b;
	if (x->eoff != y->eoff)
		return x->eoff < y->eoff ? -1 : 1;
	return x < y ? -1 : x > y;  /* same place: keep the findings' order */
}

/* A copy of the text with every non-overlapping edit applied, in text
 * order (an edit may lie after another finding's: H11 edits the call's
 * ")", H3 the "& 31" inside it). Of two overlapping edits the first in
 * text order wins. */
char *wc_apply_fixes(const WcFile *f, size_t *len, int *applied)
{
	const WcFinding **edits = base_malloc((size_t)(f->nfinds + 1) * sizeof *edits);
	int n = 0;
	for (int i = 0; i < f->nfinds; i++)
		if (f->finds[i].has_edit)
			edits[n++] = &f->finds[i];
	if (n > 1)
		qsort(edits, (size_t)n, sizeof *edits, by_edit_offset);
	Buf b = {0};
	size_t pos = 0;
	*applied = 0;
	for (int i = 0; i < n; i++) {
		const WcFinding *fd = edits[i];
		if (fd->eoff < pos || fd->eoff + fd->elen > f->src.len)
			continue;
		buf_putn(&b, f->src.text + pos, fd->eoff - pos);
		buf_puts(&b, fd->repl);
		pos = fd->eoff + fd->elen;
		(*applied)++;
	}
	free(edits);
	buf_putn(&b, f->src.text + pos, f->src.len - pos);
	*len = b.len;
	return buf_detach(&b); /* "" when empty; never leaks a reserved buffer */
}

/* Line starts of a text; the last entry is its length. */
static size_t *line_starts(const char *s, size_t n, int *count)
{
	int k = 1;
	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n' && i + 1 < n;
	size_t *ls = base_malloc((size_t)(k + 1) * sizeof *ls);
	ls[0] = 0;
	int j = 1;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\n' && i + 1 < n)
			ls[j++] = i + 1;
	ls[k] = n;
	*count = k;
	return ls;
}

static void put_line(Buf *out, char sign, const char *s, size_t from, size_t to)
{
	buf_putc(out, sign);
	buf_putn(out, s + from, to - from);
	if (to == from || s[to - 1] != '\n')
		buf_puts(out, "\n\\ No newline at end of file\n");
}

/* Fixes never add or remove lines, so the diff pairs line i with line i
 * and emits one zero-context hunk per run of changed lines. */
void wc_unified_diff_buf(Buf *out, const char *path, const char *a, size_t alen, const char *b, size_t blen)
{
	int na, nb;
	size_t *la = line_starts(a, alen, &na), *lb = line_starts(b, blen, &nb);
	bool header = false;
	for (int i = 0; i < na && i < nb;) {
		int j = i;
		while (j < na && j < nb && (la[j + 1] - la[j] != lb[j + 1] - lb[j] ||
		       memcmp(a + la[j], b + lb[j], la[j + 1] - la[j]) != 0))
			j++;
		if (j == i) {
			i++;
			continue;
		}
		if (!header)
			buf_printf(out, "--- %s\n+++ %s\n", path, path);
		header = true;
		buf_printf(out, "@@ -%d,%d +%d,%d @@\n", i + 1, j - i, i + 1, j - i);
		for (int k = i; k < j; k++)
			put_line(out, '-', a, la[k], la[k + 1]);
		for (int k = i; k < j; k++)
			put_line(out, '+', b, lb[k], lb[k + 1]);
		i = j;
	}
	free(la);
	free(lb);
}

void wc_unified_diff(FILE *out, const char *path, const char *a, size_t alen, const char *b, size_t blen)
{
	Buf d = {0};
	wc_unified_diff_buf(&d, path, a, alen, b, blen);
	fwrite(d.data ? d.data : "", 1, d.len, out);
	buf_free(&d);
}
