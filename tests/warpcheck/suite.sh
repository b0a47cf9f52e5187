#!/bin/sh
# warpcheck tests: one "PASS name" or "FAIL name: reason" line per case.
#
# cases/*: every line ending in "// expect: H2 [H4...]" must be reported with
# those ids as warnings, and "expect-note: H1 [H3...]" with those as notes;
# no other line may be; "expect-col: N" also pins the column. A case with no
# expect comment is a must-not-flag case. The bad-input cases below check
# for a clear error, no crash, and that other files still run.
cd "$(dirname "$0")/../.." || exit 2
WC=${BIN:-bin}/warpcheck
case $WC in /*) ;; *) WC=$(pwd)/$WC ;; esac
CASES=tests/warpcheck/cases
tmp=$(mktemp -d)
# hipcc and clang make their temporary folders under TMPDIR and leave
# some behind: here they go with the rest
mkdir "$tmp/tmpdir"
TMPDIR=$tmp/tmpdir
export TMPDIR
trap 'rm -rf "$tmp"' EXIT
failed=0

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failed=1; }

# The ids a line expects, one a line: "H2" for a warning, "note-H1" for a
# note (the awk below, shared by both lists).
IDS_AWK='
function ids(s, prefix,    n, a, i) {
	n = split(s, a, /[ \t,]+/)
	for (i = 1; i <= n; i++) if (a[i] ~ /^H[0-9]+$/) out[++nout] = prefix a[i]
}
function line_ids(    w, t) {
	nout = 0
	if ($0 ~ /\/\/ expect:/) { w = $0; sub(/.*\/\/ expect:/, "", w); sub(/expect-(note|col):.*/, "", w); ids(w, "") }
	if ($0 ~ /expect-note:/) { t = $0; sub(/.*expect-note:/, "", t); sub(/expect-col:.*/, "", t); ids(t, "note-") }
	return nout
}'

# "line:id" pairs the file expects, one a line, sorted.
expected() {
	awk "$IDS_AWK"'
	{ n = line_ids(); for (i = 1; i <= n; i++) print FNR ":" out[i] }' "$1" | sort -u
}

# "line:col:id" the file pins with expect-col.
expected_cols() {
	awk "$IDS_AWK"'
	/expect-col:/ {
		c = $0; sub(/.*expect-col:[ \t]*/, "", c); sub(/[^0-9].*/, "", c)
		n = line_ids(); for (i = 1; i <= n; i++) print FNR ":" c ":" out[i]
	}' "$1" | sort -u
}

# "line:col:id" of every warning and note in text output.
reported() {
	sed -n -e 's/^[^ ]*:\([0-9][0-9]*\):\([0-9][0-9]*\): warning: .*\[\(H[0-9][0-9]*\) [^]]*\]$/\1:\2:\3/p' \
		-e 's/^[^ ]*:\([0-9][0-9]*\):\([0-9][0-9]*\): note: .*\[\(H[0-9][0-9]*\) [^]]*\]$/\1:\2:note-\3/p' "$1" | sort -u
}

run_case() {
	f=$1
	name=$(basename "$f")
	"$WC" "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -gt 2 ]; then
		fail "$name" "exit status $rc (crash?)"
		return
	fi
	expected "$f" >"$tmp/want"
	reported "$tmp/out" >"$tmp/got3"
	sed 's/^\([0-9]*\):[0-9]*:/\1:/' "$tmp/got3" | sort -u >"$tmp/got"
	if ! cmp -s "$tmp/want" "$tmp/got"; then
		fail "$name" "expected [$(tr '\n' ' ' <"$tmp/want")] got [$(tr '\n' ' ' <"$tmp/got")]"
		return
	fi
	for want in $(expected_cols "$f"); do
		if ! grep -qx "$want" "$tmp/got3"; then
			fail "$name" "no finding at line:col:id $want"
			return
		fi
	done
	if grep -qv ':note-' "$tmp/want" && [ $rc -ne 1 ]; then
		fail "$name" "exit status $rc with warnings, want 1"
	elif ! grep -qv ':note-' "$tmp/want" && [ $rc -ne 0 ]; then
		fail "$name" "exit status $rc with no warnings, want 0: $(head -1 "$tmp/err")"
	else
		pass "$name"
	fi
}

for f in "$CASES"/*; do
	case "$f" in *.cu|*.cuh|*.hip|*.h|*.hpp|*.cpp|*.cc) run_case "$f" ;; esac
done

# trees/*: a project with headers (include/, found through -I, a
# compile_commands.json or the include's path in the tree), checked with
# the arguments in its ARGS file from the tree's folder. Every file's
# expect comments are checked as above, by path relative to the tree.
tree_case() {
	dir=$1
	name=tree-$(basename "$dir")
	# shellcheck disable=SC2046  # ARGS holds several arguments
	(cd "$dir" && "$WC" $(cat ARGS)) >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -gt 2 ]; then
		fail "$name" "exit status $rc (crash?)"
		return
	fi
	: >"$tmp/want"
	: >"$tmp/wantc"
	for src in $(cd "$dir" && find . -type f ! -name ARGS ! -name '*.json' | sed 's|^\./||' | sort); do
		expected "$dir/$src" | sed "s|^|$src:|" >>"$tmp/want"
		expected_cols "$dir/$src" | sed "s|^|$src:|" >>"$tmp/wantc"
	done
	sort -u -o "$tmp/want" "$tmp/want"
	abs=$(cd "$dir" && pwd)
	sed -e "s|^$abs/||" -e 's|^\./||' "$tmp/out" |
		sed -n -e 's/^\([^ :]*\):\([0-9][0-9]*\):\([0-9][0-9]*\): warning: .*\[\(H[0-9][0-9]*\) [^]]*\]$/\1:\2:\3:\4/p' \
			-e 's/^\([^ :]*\):\([0-9][0-9]*\):\([0-9][0-9]*\): note: .*\[\(H[0-9][0-9]*\) [^]]*\]$/\1:\2:\3:note-\4/p' |
		sort -u >"$tmp/got3"
	sed 's/^\([^:]*:[0-9]*\):[0-9]*:/\1:/' "$tmp/got3" | sort -u >"$tmp/got"
	if ! cmp -s "$tmp/want" "$tmp/got"; then
		fail "$name" "expected [$(tr '\n' ' ' <"$tmp/want")] got [$(tr '\n' ' ' <"$tmp/got")] $(head -1 "$tmp/err")"
		return
	fi
	while read -r want; do
		if ! grep -qx "$want" "$tmp/got3"; then
			fail "$name" "no finding at file:line:col:id $want"
			return
		fi
	done <"$tmp/wantc"
	if grep -qv ':note-' "$tmp/want" && [ $rc -ne 1 ]; then
		fail "$name" "exit status $rc with warnings, want 1"
	elif ! grep -qv ':note-' "$tmp/want" && [ $rc -ne 0 ]; then
		fail "$name" "exit status $rc with no warnings, want 0: $(head -1 "$tmp/err")"
	else
		pass "$name"
	fi
}
for d in tests/warpcheck/trees/*/; do
	tree_case "${d%/}"
done

# A finding in a header for host uses in two files: printed once per run,
# the same with any -j, in JSON too, and again on a run with --cache.
hd=tests/warpcheck/trees/hostdef
(cd "$hd" && "$WC" -I include src include -j 1) >"$tmp/hd1" 2>&1
(cd "$hd" && "$WC" -I include src include -j 4) >"$tmp/hd4" 2>&1
(cd "$hd" && "$WC" -I include src include --format json) >"$tmp/hdj" 2>&1
mkdir -p "$tmp/hdcache"
(cd "$hd" && "$WC" -I include src include --cache "$tmp/hdcache") >"$tmp/hdc0" 2>&1
(cd "$hd" && "$WC" -I include src include --cache "$tmp/hdcache" -j 1) >"$tmp/hdc" 2>&1
n=$(grep -c '^include/proj/width.cuh:6:9: warning: the host pass takes this branch' "$tmp/hd1")
nj=$(grep -c '"file": "include/proj/width.cuh", "line": 6, "col": 9' "$tmp/hdj")
if [ "$n" -ne 1 ] || [ "$nj" -ne 1 ]; then
	fail header-finding-once "the header's finding $n times in text, $nj in JSON, want 1"
elif ! cmp -s "$tmp/hd1" "$tmp/hd4"; then
	fail header-finding-once "-j 1 and -j 4 differ"
elif ! cmp -s "$tmp/hd1" "$tmp/hdc"; then
	fail header-finding-once "a run with --cache differs"
else
	pass header-finding-once
fi

# A header's summary must not depend on what the thread read before it:
# z_launch.cu alone, after a_first.cu, and with -j 1 or -j 4 gives the same.
od=tests/warpcheck/trees/order
(cd "$od" && "$WC" -j 1 .) >"$tmp/od1" 2>&1
(cd "$od" && "$WC" -j 4 .) >"$tmp/od4" 2>&1
(cd "$od" && "$WC" -j 1 z_launch.cu) >"$tmp/odz" 2>&1
if ! cmp -s "$tmp/od1" "$tmp/od4"; then
	fail header-order "-j 1 and -j 4 differ"
elif ! sed 's|^\./||' "$tmp/od1" | cmp -s - "$tmp/odz"; then
	fail header-order "z_launch.cu alone differs from the whole tree"
else
	pass header-order
fi

# A header named through "./" and "dir/.." steps is the header every other
# spelling names: read once, its finding printed once, under its plain path.
# A step back over a symbolic link goes where the file system goes.
dd=$tmp/dotdot
mkdir -p "$dd/include/proj" "$dd/src/a" "$dd/src/b" "$dd/elsewhere/deep"
cp tests/warpcheck/trees/hostdef/include/proj/width.cuh "$dd/include/proj/"
sed 's|<proj/width.cuh>|"../../include/proj/width.cuh"|' tests/warpcheck/trees/hostdef/src/again.cu >"$dd/src/a/again.cu"
sed 's|<proj/width.cuh>|"./../.././include/proj/width.cuh"|' tests/warpcheck/trees/hostdef/src/launch.cu >"$dd/src/b/launch.cu"
cp "$dd/include/proj/width.cuh" "$dd/src/w.cuh"
printf '// no width here\n' >"$dd/elsewhere/w.cuh"
printf '#include "c/../w.cuh"\nint rows(int t)\n{\n    return t / PROJ_WARP_SIZE;\n}\n' >"$dd/src/use.cu"
if ln -s ../elsewhere/deep "$dd/src/c" 2>/dev/null; then
	(cd "$dd" && "$WC" src -j 1) >"$tmp/dd1" 2>&1
	(cd "$dd" && "$WC" src -j 4) >"$tmp/dd4" 2>&1
	n=$(grep -c 'warning: the host pass takes this branch' "$tmp/dd1")
	np=$(grep -c '^include/proj/width.cuh:6:9: warning' "$tmp/dd1")
	if [ "$n" -ne 1 ] || [ "$np" -ne 1 ]; then
		fail include-dotdot "the header's finding $n times, $np under include/proj/width.cuh, want 1 and 1"
	elif grep -q '^src/use.cu' "$tmp/dd1"; then
		fail include-dotdot "c/../w.cuh read as src/w.cuh, not through the link"
	elif ! cmp -s "$tmp/dd1" "$tmp/dd4"; then
		fail include-dotdot "-j 1 and -j 4 differ"
	else
		pass include-dotdot
	fi
else
	pass include-dotdot
fi

# Launches judged with the kernels of another file: the same with any -j,
# in JSON too, and again on runs with --cache (the kernels and launches a
# file leaves to the others are kept in its entry).
xl=tests/warpcheck/trees/xlaunch
(cd "$xl" && "$WC" src -j 1) >"$tmp/xl1" 2>&1
(cd "$xl" && "$WC" src -j 4) >"$tmp/xl4" 2>&1
(cd "$xl" && "$WC" src --format json) >"$tmp/xlj" 2>&1
mkdir -p "$tmp/xlcache"
(cd "$xl" && "$WC" src --cache "$tmp/xlcache") >"$tmp/xlc0" 2>&1
(cd "$xl" && "$WC" src --cache "$tmp/xlcache" -j 1) >"$tmp/xlc" 2>&1
n=$(grep -c 'row_sum treats its block as one warp.*(a kernel of another file)' "$tmp/xl1")
nj=$(grep -c '"file": "src/launch.cu", "line": 10, "col": 19' "$tmp/xlj")
if [ "$n" -ne 2 ] || [ "$nj" -ne 1 ]; then
	fail cross-file-launches "$n text findings for row_sum (want 2), $nj JSON at 10:19 (want 1)"
elif ! cmp -s "$tmp/xl1" "$tmp/xl4"; then
	fail cross-file-launches "-j 1 and -j 4 differ"
elif ! cmp -s "$tmp/xl1" "$tmp/xlc0" || ! cmp -s "$tmp/xl1" "$tmp/xlc"; then
	fail cross-file-launches "a run with --cache differs"
else
	pass cross-file-launches
fi

# A bad input next to a good file: an error naming the file, status 2, the
# good file's findings still printed.
bad_case() {
	name=$1 file=$2 msg=$3
	"$WC" "$file" "$CASES/seed_bad.cu" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 2 ]; then
		fail "$name" "exit status $rc, want 2"
	elif ! grep -q "^$file:[0-9]*:[0-9]*: error: $msg" "$tmp/err"; then
		fail "$name" "no '$msg' error: $(head -1 "$tmp/err")"
	elif ! grep -q 'seed_bad.cu:4:32: warning' "$tmp/out"; then
		fail "$name" "the other file was not checked"
	else
		pass "$name"
	fi
}

printf '__global__ void k() {}\n\000\001\002binary' >"$tmp/binary.cu"
bad_case bad-binary "$tmp/binary.cu" "binary file"
printf '__device__ int f() { return 1; }\n/* never closed\n' >"$tmp/comment.cu"
bad_case bad-unterminated-comment "$tmp/comment.cu" "unterminated comment"
printf 'const char *s = "never closed;\nint x = __popc(1);\n' >"$tmp/string.cu"
bad_case bad-unterminated-string "$tmp/string.cu" "unterminated string literal"
printf 'const char *r = R"x(raw never closed\n' >"$tmp/raw.cu"
bad_case bad-unterminated-raw "$tmp/raw.cu" "unterminated raw string"
printf '#if defined(FOO)\nint x;\n' >"$tmp/if.cu"
bad_case bad-unbalanced-if "$tmp/if.cu" "unterminated #if"
printf 'int x;\n#endif\n' >"$tmp/endif.cu"
bad_case bad-stray-endif "$tmp/endif.cu" "#endif without #if"
printf '// caf\351 latin-1\n__global__ void k() {}\n' >"$tmp/latin1.cu"
bad_case bad-non-utf8 "$tmp/latin1.cu" "invalid UTF-8"
# #if nesting has no fixed depth: a CUDA-only branch 3000 levels down is
# still not read as HIP code, and two #endifs short, the two
# outermost #ifs are errors at their lines.
awk 'BEGIN { for (i = 0; i < 3000; i++) print "#if defined(A" i ")"
	print "#ifndef __HIP_PLATFORM_AMD__"; print "__device__ float f(float v) { return __shfl_xor_sync(0xffffffff, v, 1); }"
	print "#else"; print "__device__ unsigned g() { unsigned m = __ballot(1); return m; }"; print "#endif"
	for (i = 0; i < 3000; i++) print "#endif" }' >"$tmp/deep.cu"
"$WC" "$tmp/deep.cu" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c ': warning: ' "$tmp/out")" -eq 1 ] && grep -q '^.*deep.cu:3004:27: warning: .*H4' "$tmp/out"; then
	pass deep-if-nesting
else
	fail deep-if-nesting "status $rc, want only the H4 at 3004:27: $(head -2 "$tmp/out" | tr '\n' ' ')"
fi
sed '$d' "$tmp/deep.cu" | sed '$d' >"$tmp/deep_open.cu"
bad_case deep-if-unterminated "$tmp/deep_open.cu" "unterminated #if"
if grep -q 'deep_open.cu:1:1: error: unterminated #if' "$tmp/err" && grep -q 'deep_open.cu:2:1: error: unterminated #if' "$tmp/err"; then
	pass deep-if-unterminated-located
else
	fail deep-if-unterminated-located "$(head -2 "$tmp/err" | tr '\n' ' ')"
fi
# Branches nested 20000 deep (and 5000 early returns in one block) are
# read in time linear in their size: the strongest split is the lane test
# in the middle (line 10003), and after the returns the first (line 40009).
awk 'BEGIN { print "__global__ void k(float *o, int n) {"; print "    float v = o[threadIdx.x];"
	for (i = 0; i < 10000; i++) print "    if (threadIdx.x < n) {"
	print "    if (threadIdx.x % 32 < 16) {"
	for (i = 0; i < 10000; i++) print "    if (threadIdx.x < n) {"
	print "    v += __shfl_xor_sync(0xffffffff, v, 1);"
	for (i = 0; i < 20001; i++) print "    }"
	print "    o[threadIdx.x] = v;"; print "}"
	print "__global__ void r(float *o, int n) {"
	for (i = 0; i < 5000; i++) print "    if (threadIdx.x >= n + " i ") return;"
	print "    o[threadIdx.x] = __shfl_down_sync(0xffffffff, o[threadIdx.x], 1);"; print "}" }' >"$tmp/deep_branch.cu"
timeout 60 "$WC" "$tmp/deep_branch.cu" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c ': warning: .*H10' "$tmp/out")" -eq 2 ] &&
	grep -q 'deep_branch.cu:20004:26: warning: .*only some lanes take (line 10003).*H10' "$tmp/out" &&
	grep -q 'deep_branch.cu:45009:39: warning: .*run-time bound (line 40009).*H10' "$tmp/out"; then
	pass deep-branch-nesting
else
	fail deep-branch-nesting "status $rc: $(grep ': warning: ' "$tmp/out" | head -3 | cut -c1-160 | tr '\n' ' ')"
fi
"$WC" "$tmp/missing.cu" "$CASES/seed_bad.cu" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "missing.cu: No such file" "$tmp/err" && grep -q 'seed_bad.cu:4:32: warning' "$tmp/out"; then
	pass bad-missing-file
else
	fail bad-missing-file "status $rc: $(head -1 "$tmp/err")"
fi

# --fix rewrites in place: afterwards the file is clean; --dry-run prints a
# diff that patch(1) turns into the same text.
fix_case() {
	name=$1 src=$2
	base=$(basename "$src")
	mkdir -p "$tmp/fix" "$tmp/dry"
	cp "$src" "$tmp/fix/$base"
	cp "$src" "$tmp/dry/$base"
	"$WC" --fix "$tmp/fix/$base" >/dev/null 2>"$tmp/err"
	"$WC" "$tmp/fix/$base" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$name" "still reports after --fix (status $rc): $(grep warning: "$tmp/out" | head -1)"
		return
	fi
	(cd "$tmp/dry" && "$WC" --fix --dry-run "$base") >"$tmp/diff" 2>"$tmp/err"
	if ! cmp -s "$src" "$tmp/dry/$base"; then
		fail "$name" "--dry-run changed the file"
	elif ! grep -q '^+++ ' "$tmp/diff"; then
		fail "$name" "--dry-run printed no diff"
	elif command -v patch >/dev/null 2>&1 && ! (cd "$tmp/dry" && patch -s -p0 <"$tmp/diff" >/dev/null 2>&1 && cmp -s "$base" "$tmp/fix/$base"); then
		fail "$name" "the dry-run diff does not reproduce --fix"
	else
		pass "$name"
	fi
}
fix_case fix-cuda "$CASES/fix_cuda.cu"
fix_case fix-hip "$CASES/fix_hip.hip"
fix_case fix-seed "$CASES/seed_bad.cu"
fix_case fix-new-cuda "$CASES/fix_new.cu"
fix_case fix-new-hip "$CASES/fix_new.hip"
fix_case fix-logical32 "$CASES/logical32.cu"

# Notes carry no rewrite: --fix leaves a consistent 32-lane scheme whole.
"$WC" "$CASES/logical32.cu" >"$tmp/before" 2>&1
"$WC" "$tmp/fix/logical32.cu" >"$tmp/after" 2>&1
if [ "$(grep -c ': note: ' "$tmp/before")" -ne 9 ]; then
	fail notes-kept "$(grep -c ': note: ' "$tmp/before") notes before --fix, want 9"
elif [ "$(grep -c ': note: ' "$tmp/after")" -ne 9 ] || grep -q ': warning: ' "$tmp/after"; then
	fail notes-kept "after --fix: $(grep -c ': note: ' "$tmp/after") notes, $(grep -c ': warning: ' "$tmp/after") warnings"
else
	pass notes-kept
fi

# H10 under a run-time bound, on data or in a loop: votes, ballots and
# __syncwarp get the mask of the active lanes; shuffles, which may read an
# inactive lane, are left to the author.
"$WC" --fix --dry-run "$CASES/h10_runtime.cu" >"$tmp/diff" 2>/dev/null
if grep -q '^+.*__shfl.*__activemask' "$tmp/diff"; then
	fail h10-runtime-fixes "a shuffle got __activemask(): $(grep '^+.*__shfl' "$tmp/diff" | head -1)"
elif [ "$(grep -c '^+.*\(__ballot_sync\|__syncwarp\|__any_sync\)(__activemask()' "$tmp/diff")" -ne 7 ]; then
	fail h10-runtime-fixes "want 7 votes, ballots and __syncwarp fixed: $(grep -c '^+' "$tmp/diff")"
else
	pass h10-runtime-fixes
fi

# Lanes counted in 32s, no physical view, shuffles with no width: --fix
# widens the masks and leaves the 32s (warpSize ids would skip columns).
cp "$CASES/fix_keep32.cu" "$tmp/keep32.cu"
"$WC" --fix "$tmp/keep32.cu" >/dev/null 2>&1
if grep -v "^//" "$tmp/keep32.cu" | grep -q warpSize; then
	fail fix-keeps-32 "a 32 became warpSize: $(grep -v "^//" "$tmp/keep32.cu" | grep warpSize | head -1)"
elif grep -q 0xffffffff "$tmp/keep32.cu"; then
	fail fix-keeps-32 "a 32-bit mask was left"
else
	pass fix-keeps-32
fi

# Fixed code must still compile, for wave64 (gfx90a) and wave32 (gfx1030)
# and for NVIDIA. hipcc is a Debian package the CI installs, so its absence
# is a failure; nvcc comes with the CUDA toolkit, and its absence is
# reported as a skip. hip_sync.h supplies the 64-bit-mask warp-sync API of
# HIP 6.2 to an older hipcc, so CUDA-style fixtures compile as HIP too.
HIPCC=${HIPCC:-/usr/bin/hipcc}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
SYNC_H=$(pwd)/tests/warpcheck/hip_sync.h
# USE_ROCM and GGML_USE_HIP select the HIP branches of the realistic cases.
hip_compile() {
	"$HIPCC" -x hip --offload-arch=gfx90a --offload-arch=gfx1030 -DUSE_ROCM -DGGML_USE_HIP -include "$SYNC_H" \
		-c "$1" -o "$tmp/hip.o" >"$tmp/err" 2>&1
}
# Cases in the style of real projects: --fix leaves some findings (no safe
# rewrite), but what it rewrites must compile.
REAL_CASES="real_c10_reduce.cu real_ggml_norm.cu real_macro_shfl.cu real_block_lanes.cu real_portable.cu
real_ballot_ops.cu real_width_defs.cu h10_flow.cu real_welford.cu"
mkdir -p "$tmp/fixr"
for src in $REAL_CASES; do
	cp "$CASES/$src" "$tmp/fixr/$src"
	"$WC" --fix "$tmp/fixr/$src" >/dev/null 2>&1
done
if [ -x "$HIPCC" ]; then
	for src in fix_hip.hip fix_new.hip fix_cuda.cu logical32.cu; do
		if hip_compile "$tmp/fix/$src"; then
			pass "fix-compiles-hip $src"
		else
			fail "fix-compiles-hip $src" "$(grep error "$tmp/err" | head -3 | tr '\n' ' ')"
		fi
	done
	for src in $REAL_CASES; do
		if hip_compile "$tmp/fixr/$src"; then
			pass "fix-compiles-hip $src"
		else
			fail "fix-compiles-hip $src" "$(grep error "$tmp/err" | head -3 | tr '\n' ' ')"
		fi
	done
	# The compile check can fail: the unfixed CUDA fixture's 32-bit masks do not build.
	if hip_compile "$CASES/fix_cuda.cu"; then
		fail hip-rejects-32-bit-masks "the unfixed fixture compiled"
	elif grep -q "64-bit integer" "$tmp/err"; then
		pass hip-rejects-32-bit-masks
	else
		fail hip-rejects-32-bit-masks "$(grep error "$tmp/err" | head -2 | tr '\n' ' ')"
	fi
else
	fail fix-compiles-hip "hipcc not found at $HIPCC (apt-get install hipcc)"
fi
if [ -x "$NVCC" ]; then
	for src in fix_cuda.cu fix_new.cu; do
		if "$NVCC" -arch=sm_90 -c "$tmp/fix/$src" -o "$tmp/cu.o" >"$tmp/err" 2>&1; then
			pass "fix-compiles-nvcc $src"
		else
			fail "fix-compiles-nvcc $src" "$(grep error "$tmp/err" | head -3 | tr '\n' ' ')"
		fi
	done
	for src in $REAL_CASES; do
		if "$NVCC" -arch=sm_90 -c "$tmp/fixr/$src" -o "$tmp/cu.o" >"$tmp/err" 2>&1; then
			pass "fix-compiles-nvcc $src"
		else
			fail "fix-compiles-nvcc $src" "$(grep error "$tmp/err" | head -3 | tr '\n' ' ')"
		fi
	done
else
	echo "SKIP fix-compiles-nvcc: nvcc not found at $NVCC"
fi

# The programs make gpu-check runs before and after --fix must build here:
# with nvcc both ways, with hipcc once fixed. Their own total is left out.
NVCC=$NVCC HIPCC=$HIPCC tests/gpu/warpcheck.sh --compile-only >"$tmp/gpu" 2>&1
sed '/^[0-9]* passed, [0-9]* failed$/d' "$tmp/gpu"
grep -q '^FAIL ' "$tmp/gpu" && failed=1

# Output formats.
"$WC" --format json "$CASES/seed_bad.cu" >"$tmp/json"
n=$(grep -c '"id": "H' "$tmp/json")
if [ "$n" -ne 8 ]; then
	fail json-format "$n findings in JSON, want 8"
elif command -v python3 >/dev/null 2>&1 && ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/json" 2>/dev/null; then
	fail json-format "not valid JSON"
else
	pass json-format
fi
"$WC" --format sarif "$CASES/seed_bad.cu" "$CASES/h3_clean.cu" >"$tmp/sarif"
if ! grep -q '"version": "2.1.0"' "$tmp/sarif"; then
	fail sarif-format "no SARIF 2.1.0 version"
elif command -v python3 >/dev/null 2>&1 && ! python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]["results"]
assert len(r) == 8 and r[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
' "$tmp/sarif" 2>/dev/null; then
	fail sarif-format "invalid SARIF or wrong results"
else
	pass sarif-format
fi
"$WC" --format json "$CASES/logical32.cu" >"$tmp/json"
"$WC" --format sarif "$CASES/logical32.cu" >"$tmp/sarif"
if [ "$(grep -c '"severity": "note"' "$tmp/json")" -ne 9 ] || [ "$(grep -c '"severity": "warning"' "$tmp/json")" -ne 2 ]; then
	fail json-severity "want 9 notes and 2 warnings: $(grep -o '"severity": "[a-z]*"' "$tmp/json" | sort | uniq -c | tr '\n' ' ')"
elif [ "$(grep -o '"level": "note"' "$tmp/sarif" | wc -l)" -ne 9 ]; then
	fail json-severity "SARIF: $(grep -o '"level": "note"' "$tmp/sarif" | wc -l) results at level note, want 9"
else
	pass json-severity
fi
"$WC" --format json "$CASES/h3_clean.cu" >"$tmp/json"
rc=$?
if [ $rc -eq 0 ] && grep -q '"findings": \[\]' "$tmp/json"; then
	pass json-clean
else
	fail json-clean "status $rc: $(head -c 200 "$tmp/json")"
fi

# SARIF for review tools: every rule with its help text; a finding with a
# rewrite carries it as a fix object that replaces the bytes --fix does.
"$WC" --format sarif "$CASES/fix_cuda.cu" >"$tmp/sarif"
if command -v python3 >/dev/null 2>&1 && ! python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
run = d["runs"][0]
rules = run["tool"]["driver"]["rules"]
assert len(rules) == 15 and all(r["help"]["text"] for r in rules), "rules"
fixed = [r for r in run["results"] if "fixes" in r]
assert fixed, "no fix objects"
src = open(sys.argv[2]).read().split("\n")
for r in fixed:
    rep = r["fixes"][0]["artifactChanges"][0]["replacements"][0]
    reg = rep["deletedRegion"]
    assert reg["startLine"] == reg["endLine"]
    line = src[reg["startLine"] - 1]
    old = line[reg["startColumn"] - 1:reg["endColumn"] - 1]
    assert old and old != rep["insertedContent"]["text"], (old, rep)
    assert r["partialFingerprints"]["warpcheck/v1"]
' "$tmp/sarif" "$CASES/fix_cuda.cu"; then
	fail sarif-fixes "rules without help, or fix objects that do not match the text"
else
	pass sarif-fixes
fi

# --baseline: an earlier report's findings are not reported again, even
# when lines above them move; a new finding is.
mkdir -p "$tmp/base"
cp "$CASES/seed_bad.cu" "$tmp/base/k.cu"
(cd "$tmp/base" && "$WC" --format json k.cu >base.json)
{ echo '// two new lines above'; echo '__device__ int newmask() { unsigned m = __ballot(1); return m; }'; cat "$CASES/seed_bad.cu"; } >"$tmp/base/k.cu"
(cd "$tmp/base" && "$WC" --baseline base.json k.cu) >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c ': warning: ' "$tmp/out")" -eq 1 ] && grep -q '^k.cu:2:.*H4' "$tmp/out"; then
	pass cli-baseline
else
	fail cli-baseline "status $rc, want only the new H4 at line 2: $(grep ': warning: ' "$tmp/out" | head -3 | tr '\n' ' ')"
fi
"$WC" --baseline "$tmp/missing.json" "$CASES/seed_bad.cu" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass cli-baseline-missing || fail cli-baseline-missing "status $rc, want 2"

# --cache: a second run takes the reports from the cache (the same bytes);
# a header that changes makes its includers be checked again. The first
# run makes the cache folder.
cp -R tests/warpcheck/trees/suffix "$tmp/cached"
(cd "$tmp/cached" && "$WC" --cache "$tmp/cache" .) >"$tmp/c1" 2>&1
(cd "$tmp/cached" && "$WC" --cache "$tmp/cache" .) >"$tmp/c2" 2>&1
sed 's/PROJ_WARP_SIZE 32/PROJ_WARP_SIZE 64/' "$tmp/cached/lib/include/proj/width.h" >"$tmp/w.h"
cp "$tmp/w.h" "$tmp/cached/lib/include/proj/width.h"
(cd "$tmp/cached" && "$WC" --cache "$tmp/cache" .) >"$tmp/c3" 2>&1
if [ "$(ls "$tmp/cache" | wc -l)" -lt 3 ]; then
	fail cli-cache "no cache entries written"
elif ! cmp -s "$tmp/c1" "$tmp/c2" || ! grep -q 'k.cu:8:18: warning' "$tmp/c1"; then
	fail cli-cache "the cached run differs from the first"
elif grep -q 'k.cu:8:18: warning' "$tmp/c3"; then
	fail cli-cache "a changed header did not make its includer be checked again"
else
	pass cli-cache
fi
# A rebuilt warpcheck (here: the same program with a byte more, which runs
# the same) finds none of the entries the old one wrote: its rules may differ.
cp "$WC" "$tmp/wc-rebuilt" && printf 'x' >>"$tmp/wc-rebuilt"
before=$(ls "$tmp/cache" | wc -l)
(cd "$tmp/cached" && "$tmp/wc-rebuilt" --cache "$tmp/cache" .) >"$tmp/c4" 2>&1
after=$(ls "$tmp/cache" | wc -l)
if [ "$after" -gt "$before" ] && cmp -s "$tmp/c3" "$tmp/c4"; then
	pass cli-cache-rebuilt
else
	fail cli-cache-rebuilt "entries $before -> $after (want more: a new program must not take old reports), or a different report"
fi

# Build flags that cannot be used: an error and status 2.
printf '[{"file": \n' >"$tmp/bad_db.json"
"$WC" --compile-commands "$tmp/bad_db.json" "$CASES/h1_clean.cu" >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc -eq 2 ] && grep -q 'bad_db.json:[0-9]*:[0-9]*: error: invalid JSON' "$tmp/err"; then
	pass cli-bad-compile-db
else
	fail cli-bad-compile-db "status $rc: $(head -1 "$tmp/err")"
fi
"$WC" --target gfx9999 "$CASES/h1_clean.cu" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass cli-bad-target || fail cli-bad-target "status $rc, want 2"
"$WC" "$CASES/h1_clean.cu" -I >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass cli-flag-no-value || fail cli-flag-no-value "status $rc, want 2"

# Command line.
"$WC" --help >"$tmp/out" 2>&1 && grep -q '^usage: warpcheck' "$tmp/out" && pass cli-help || fail cli-help "no usage"
"$WC" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass cli-no-args || fail cli-no-args "status $rc, want 2"
"$WC" --bogus "$CASES" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass cli-bad-option || fail cli-bad-option "status $rc, want 2"
"$WC" --format xml "$CASES" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass cli-bad-format || fail cli-bad-format "status $rc, want 2"
mkdir -p "$tmp/tree/sub/deeper"
cp "$CASES/seed_bad.cu" "$tmp/tree/sub/deeper/a.cuh"
cp "$CASES/seed_bad.cu" "$tmp/tree/sub/b.txt"
cp "$CASES/h2_masks.cu" "$tmp/tree/c.hpp"
"$WC" "$tmp/tree" >"$tmp/out" 2>&1; rc=$?
files=$(grep ': warning:' "$tmp/out" | cut -d: -f1 | sort -u | wc -l)
if [ $rc -eq 1 ] && [ "$files" -eq 2 ]; then
	pass cli-directory
else
	fail cli-directory "status $rc, findings in $files files, want 2"
fi
# -j: the same output, in path order, whatever the number of threads.
"$WC" -j 1 --format json "$CASES" "$tmp/missing.cu" >"$tmp/j1" 2>"$tmp/e1"
"$WC" -j 4 --format json "$CASES" "$tmp/missing.cu" >"$tmp/j4" 2>"$tmp/e4"
"$WC" -j4 "$CASES" >"$tmp/t4" 2>/dev/null
"$WC" --jobs=1 "$CASES" >"$tmp/t1" 2>/dev/null
if cmp -s "$tmp/j1" "$tmp/j4" && cmp -s "$tmp/e1" "$tmp/e4" && cmp -s "$tmp/t1" "$tmp/t4" && [ -s "$tmp/t1" ] &&
   [ "$(grep -o '"file": "[^"]*"' "$tmp/j1" | uniq | sort -c 2>&1)" = "" ]; then
	pass cli-jobs-deterministic
else
	fail cli-jobs-deterministic "output differs between -j 1 and -j 4, or is not in path order"
fi
"$WC" -j 0 "$CASES" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && pass cli-bad-jobs || fail cli-bad-jobs "status $rc for -j 0, want 2"
if [ -c /dev/zero ]; then
	"$WC" /dev/zero "$CASES/seed_bad.cu" >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ $rc -eq 2 ] && grep -q 'not a regular file' "$tmp/err" && grep -q 'seed_bad.cu:4:32' "$tmp/out"; then
		pass cli-device-file
	else
		fail cli-device-file "status $rc: $(head -1 "$tmp/err")"
	fi
fi

exit $failed
