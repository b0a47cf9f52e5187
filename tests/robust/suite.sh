#!/bin/sh
# Robustness: no file is ever lost or replaced by a tool, hostile input
# never crashes or hangs, and `tritonc run` refuses bad arguments clearly.
# Runs as any user; as root it also makes a character device with mknod.
# Every case runs under a time limit, in a temporary folder.
cd "$(dirname "$0")/../.." || exit 2
BIN=${BIN:-bin}
TC=$BIN/tritonc
WC=$BIN/warpcheck
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
pass() { echo "PASS robust $1"; }
fail() { echo "FAIL robust $1: $2"; }
lim() { timeout 20 "$@"; }
K=examples/rmsnorm.py
KARGS="-s *fp32,*fp32,*fp32,i32,i32 -D XBLOCK=2 --target c"
inode() { stat -c %d:%i "$1"; }

# ---- output safety: tritonc compile -o ----
mkfifo "$tmp/fifo"
# the shell holds the FIFO open at both ends (no race with a reader that
# starts late); the output, under the pipe's 64 KiB, waits in it
exec 3<>"$tmp/fifo"
# shellcheck disable=SC2086
lim "$TC" compile $K $KARGS -o "$tmp/fifo" 2>"$tmp/err"
rc=$?
timeout 5 dd bs=1048576 count=1 iflag=nonblock <&3 >"$tmp/fifo.got" 2>/dev/null
exec 3<&-
if [ $rc -eq 0 ] && [ -p "$tmp/fifo" ] && grep -q _launch "$tmp/fifo.got"; then
	pass "-o FIFO: written through, still a FIFO"
else
	fail "-o FIFO" "status $rc, $(ls -l "$tmp/fifo" 2>&1) $(head -2 "$tmp/err")"
fi
# shellcheck disable=SC2086
lim "$TC" compile $K $KARGS -o "$tmp/fifo" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ -p "$tmp/fifo" ] && grep -q "no reader" "$tmp/err"; then
	pass "-o FIFO without a reader: refused, no hang"
else
	fail "-o FIFO without a reader" "status $rc, $(ls -l "$tmp/fifo" 2>&1) $(head -2 "$tmp/err")"
fi
if [ "$(id -u)" -eq 0 ] && mknod "$tmp/null" c 1 3 2>/dev/null; then
	# shellcheck disable=SC2086
	lim "$TC" compile $K $KARGS -o "$tmp/null" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 0 ] && [ -c "$tmp/null" ]; then
		pass "-o a character device: written through, still a device"
	else
		fail "-o a character device" "status $rc, $(ls -l "$tmp/null") $(head -2 "$tmp/err")"
	fi
	# shellcheck disable=SC2086
	lim "$WC" --fix "$tmp/null" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && [ -c "$tmp/null" ]; then
		pass "warpcheck --fix a character device: refused, still a device"
	else
		fail "warpcheck --fix a character device" "status $rc, $(ls -l "$tmp/null")"
	fi
else
	echo "robust: not root or mknod refused: the character-device case uses a FIFO only"
fi
cp $K "$tmp/k.py"
ln -s k.py "$tmp/klink.py"
ln "$tmp/k.py" "$tmp/khard.py"
mkdir "$tmp/sub"
for out in "$tmp/k.py" "$tmp/klink.py" "$tmp/sub/../k.py" "$tmp/./k.py" "$tmp/khard.py"; do
	# shellcheck disable=SC2086
	lim "$TC" compile "$tmp/k.py" $KARGS -o "$out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && cmp -s $K "$tmp/k.py" && grep -q "is the input file" "$tmp/err" && [ -L "$tmp/klink.py" ]; then
		pass "-o naming the input (${out#"$tmp"/}): refused, input intact"
	else
		fail "-o naming the input (${out#"$tmp"/})" "status $rc, $(head -2 "$tmp/err")"
	fi
done
# the same, relative: a name through a folder and back, run from inside the folder
mkdir "$tmp/d"
cp $K "$tmp/d/k.py"
tc_abs=$(cd "$(dirname "$TC")" && pwd)/$(basename "$TC")
for out in ./d/../d/k.py d/./k.py ../"$(basename "$tmp")"/d/k.py; do
	# shellcheck disable=SC2086
	(cd "$tmp" && timeout 20 "$tc_abs" compile d/k.py $KARGS -o "$out") 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && cmp -s $K "$tmp/d/k.py" && grep -q "is the input file" "$tmp/err"; then
		pass "-o naming the input as $out (input d/k.py): refused, input intact"
	else
		fail "-o naming the input as $out" "status $rc, $(head -2 "$tmp/err")"
	fi
done
# a link is followed: its target is written, the link stays
echo old >"$tmp/real.c"
ln -s real.c "$tmp/out.link"
ln -s "$tmp/new.c" "$tmp/dangling.link"
# shellcheck disable=SC2086
lim "$TC" compile $K $KARGS -o "$tmp/out.link" 2>"$tmp/err" &&
	lim "$TC" compile $K $KARGS -o "$tmp/dangling.link" 2>>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ -L "$tmp/out.link" ] && [ -L "$tmp/dangling.link" ] && grep -q _launch "$tmp/real.c" &&
	grep -q _launch "$tmp/new.c"; then
	pass "-o through a symlink (also one to nothing yet): the target is written, the link stays"
else
	fail "-o through a symlink" "status $rc, $(ls -l "$tmp"/*.link) $(head -2 "$tmp/err")"
fi
# mode, owner and hard links of an existing output are kept
echo old >"$tmp/moded.c"
chmod 0640 "$tmp/moded.c"
[ "$(id -u)" -eq 0 ] && chown 1234:2345 "$tmp/moded.c"
owner=$(stat -c %u:%g "$tmp/moded.c")
ln "$tmp/moded.c" "$tmp/moded2.c"
before=$(inode "$tmp/moded.c")
# shellcheck disable=SC2086
lim "$TC" compile $K $KARGS -o "$tmp/moded.c" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(stat -c %a "$tmp/moded.c")" = 640 ] && [ "$(stat -c %u:%g "$tmp/moded.c")" = "$owner" ] &&
	[ "$(inode "$tmp/moded.c")" = "$before" ] && cmp -s "$tmp/moded.c" "$tmp/moded2.c" && grep -q _launch "$tmp/moded2.c"; then
	pass "-o an existing file: mode, owner and hard link kept"
else
	fail "-o an existing file" "status $rc, $(ls -li "$tmp"/moded*) $(head -2 "$tmp/err")"
fi
echo old >"$tmp/ro.c"
chmod 0444 "$tmp/ro.c"
# shellcheck disable=SC2086
lim "$TC" compile $K $KARGS -o "$tmp/ro.c" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(cat "$tmp/ro.c")" = old ] && grep -q "read-only" "$tmp/err"; then
	pass "-o a file without write permission: refused (also as root)"
else
	fail "-o a read-only file" "status $rc, $(cat "$tmp/ro.c" | head -1) $(head -2 "$tmp/err")"
fi
# shellcheck disable=SC2086
lim "$TC" compile $K $KARGS -o "$tmp/sub" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ -d "$tmp/sub" ] && grep -q "cannot write" "$tmp/err"; then
	pass "-o a directory: refused"
else
	fail "-o a directory" "status $rc, $(head -2 "$tmp/err")"
fi
# A write that fails (the file size limit) leaves the old file as it was,
# for a single link and for hard links.
echo old >"$tmp/small.c"
echo old >"$tmp/hl.c"
ln "$tmp/hl.c" "$tmp/hl2.c"
for out in small.c hl.c; do
	# shellcheck disable=SC2086
	(trap '' XFSZ; ulimit -f 1; lim "$TC" compile $K $KARGS -o "$tmp/$out") 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(cat "$tmp/$out")" = old ] && [ "$(ls "$tmp" | grep -c "$out.tmp")" -eq 0 ]; then
		pass "a failed write keeps the old output ($out)"
	else
		fail "a failed write ($out)" "status $rc, $(head -c 80 "$tmp/$out") $(ls "$tmp" | grep tmp) $(head -2 "$tmp/err")"
	fi
done

# ---- output safety: warpcheck --fix ----
fixcase=tests/warpcheck/cases/fix_cuda.cu
mkdir "$tmp/wc"
cp $fixcase "$tmp/wc/a.cu"
chmod 0604 "$tmp/wc/a.cu"
[ "$(id -u)" -eq 0 ] && chown 1234:2345 "$tmp/wc/a.cu"
owner=$(stat -c %u:%g "$tmp/wc/a.cu")
ln "$tmp/wc/a.cu" "$tmp/wc/a2.cu"
before=$(inode "$tmp/wc/a.cu")
lim "$WC" --fix "$tmp/wc/a.cu" >/dev/null 2>"$tmp/err"
if ! cmp -s $fixcase "$tmp/wc/a.cu" && [ "$(stat -c %a "$tmp/wc/a.cu")" = 604 ] &&
	[ "$(stat -c %u:%g "$tmp/wc/a.cu")" = "$owner" ] && [ "$(inode "$tmp/wc/a.cu")" = "$before" ] &&
	cmp -s "$tmp/wc/a.cu" "$tmp/wc/a2.cu"; then
	pass "warpcheck --fix keeps mode, owner and hard links"
else
	fail "warpcheck --fix mode/owner/links" "$(ls -li "$tmp/wc") $(head -2 "$tmp/err")"
fi
cp $fixcase "$tmp/wc/real.cu"
ln -s real.cu "$tmp/wc/link.cu"
lim "$WC" --fix "$tmp/wc/link.cu" >/dev/null 2>"$tmp/err"
if [ -L "$tmp/wc/link.cu" ] && ! cmp -s $fixcase "$tmp/wc/real.cu"; then
	pass "warpcheck --fix through a symlink: the target is fixed, the link stays"
else
	fail "warpcheck --fix through a symlink" "$(ls -l "$tmp/wc") $(head -2 "$tmp/err")"
fi
cp $fixcase "$tmp/wc/ro.cu"
chmod 0444 "$tmp/wc/ro.cu"
lim "$WC" --fix "$tmp/wc/ro.cu" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && cmp -s $fixcase "$tmp/wc/ro.cu" && grep -q "read-only" "$tmp/err"; then
	pass "warpcheck --fix a file without write permission: refused (also as root)"
else
	fail "warpcheck --fix a read-only file" "status $rc, $(head -2 "$tmp/err")"
fi
cp tests/warpcheck/cases/h10_clean.cu "$tmp/wc/clean.cu"
touch -d '2001-02-03 04:05:06' "$tmp/wc/clean.cu"
before="$(inode "$tmp/wc/clean.cu") $(stat -c %Y "$tmp/wc/clean.cu")"
lim "$WC" --fix "$tmp/wc/clean.cu" >/dev/null 2>"$tmp/err"
if [ "$(inode "$tmp/wc/clean.cu") $(stat -c %Y "$tmp/wc/clean.cu")" = "$before" ]; then
	pass "warpcheck --fix never touches a file it has no fix for"
else
	fail "warpcheck --fix touched a clean file" "$(ls -li --full-time "$tmp/wc/clean.cu")"
fi
cp $fixcase "$tmp/wc/big.cu"
i=0
while [ $i -lt 40 ]; do cat $fixcase; i=$((i + 1)); done | sed 's/__global__ void k(/__global__ void k_x(/' >"$tmp/wc/big.cu"
cp "$tmp/wc/big.cu" "$tmp/wc/big.orig"
(trap '' XFSZ; ulimit -f 8; lim "$WC" --fix "$tmp/wc/big.cu") >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && cmp -s "$tmp/wc/big.cu" "$tmp/wc/big.orig" && [ "$(ls "$tmp/wc" | grep -c 'big.cu.tmp')" -eq 0 ]; then
	pass "warpcheck --fix: a failed write keeps the file as it was"
else
	fail "warpcheck --fix: a failed write" "status $rc, $(ls "$tmp/wc") $(head -2 "$tmp/err")"
fi

# ---- unbounded inputs: deep and long expressions, long files ----
# Each either compiles or stops with a located error naming the limit;
# never a crash, and in a time that grows with the input, not its square.
gen() {   # gen KIND N FILE
	awk -v kind="$1" -v n="$2" 'BEGIN {
		print "import triton\nimport triton.language as tl\n\n@triton.jit"
		print "def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n    i = tl.arange(0, BLOCK)\n    x = tl.load(x_ptr + i)"
		if (kind == "plus") { printf "    x = x"; for (i = 0; i < n; i++) printf " + x"; print "" }
		if (kind == "pow") { printf "    x = x * 1"; for (i = 0; i < n; i++) printf "**1"; print "" }
		if (kind == "cpow") { printf "    c = 2"; for (i = 0; i < n; i++) printf "**-1"; print "\n    x = x + c" }
		if (kind == "paren") { printf "    x = "; for (i = 0; i < n; i++) printf "("; printf "x"; for (i = 0; i < n; i++) printf ")"; print "" }
		if (kind == "neg") { printf "    x = "; for (i = 0; i < n; i++) printf "-"; print "x" }
		if (kind == "not") { printf "    c = "; for (i = 0; i < n; i++) printf "not "; print "n\n    x = x + c" }
		if (kind == "to") { printf "    x = x"; for (i = 0; i < n; i++) printf ".to(tl.float32)"; print "" }
		if (kind == "and") { printf "    c = n == 0"; for (i = 0; i < n; i++) printf " and n == %d", i; print "\n    x = x + c" }
		if (kind == "or") { printf "    c = n == 0"; for (i = 0; i < n; i++) printf " or n == %d", i; print "\n    x = x + c" }
		if (kind == "elif") { print "    if n == 0:\n        x = x + 0"; for (i = 1; i < n; i++) printf "    elif n == %d:\n        x = x + %d\n", i, i }
		if (kind == "lines") { for (i = 0; i < n; i++) printf "    x = x + %d\n", i }
		if (kind == "longline") { printf "    x = x"; for (i = 0; i < n; i++) printf "+1"; print "" }
		if (kind == "names") { print "    x0 = x"; for (i = 1; i < n; i++) printf "    x%d = x%d + %d\n", i, i - 1, i; printf "    x = x%d\n", n - 1 }
		if (kind == "ifs") for (i = 1; i < n; i++) printf "    v%d = x + %d\n    if n > %d:\n        x = x + v%d\n", i, i, i, i
		if (kind == "loopifs") { print "    for j in range(n):"; for (i = 1; i < n; i++) printf "        if j > %d:\n            x = x + %d\n", i, i }
		print "    tl.store(y_ptr + i, x)"
		if (kind == "kernels") for (k = 0; k < n; k++) printf "\n\n@triton.jit\ndef k%d(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n    i = tl.arange(0, BLOCK)\n    tl.store(y_ptr + i, tl.load(x_ptr + i) + %d)\n", k, k
	}' >"$3"
}
now_ms() { date +%s%3N; }
# KIND N WANT(ok|limit) SECONDS
deep() {
	gen "$1" "$2" "$tmp/deep.py"
	start=$(now_ms)
	timeout 120 "$TC" compile "$tmp/deep.py" -s '*fp32,*fp32,i32' -D BLOCK=16 --target c -o "$tmp/deep.c" 2>"$tmp/err"
	rc=$?
	ms=$(($(now_ms) - start))
	what="$1 x $2 ($(wc -c <"$tmp/deep.py") bytes, $ms ms)"
	if [ $rc -ge 124 ]; then
		fail "$what" "status $rc (a crash or a hang)"
	elif [ "$3" = ok ] && [ $rc -ne 0 ]; then
		fail "$what" "status $rc: $(head -1 "$tmp/err")"
	elif [ "$3" = limit ] && { [ $rc -ne 1 ] || ! head -1 "$tmp/err" | grep -q "^$tmp/deep.py:[0-9]*:[0-9]*: error: .*(limit is [0-9]*)"; }; then
		fail "$what" "status $rc, no located error naming its limit: $(head -1 "$tmp/err")"
	elif [ $ms -gt $(($4 * 1000)) ]; then
		fail "$what" "took more than $4 s"
	else
		pass "$what: $3"
	fi
}
deep plus 100000 ok 60
deep pow 100000 ok 30
deep cpow 20000 ok 30
deep paren 100000 limit 10
deep paren 900 ok 10
deep neg 50000 limit 10
deep not 5000 limit 10
deep to 20000 ok 30
deep and 20000 ok 30
deep or 20000 ok 30
deep elif 900 ok 30
deep elif 5000 limit 10
deep longline 500000 limit 30
deep lines 100000 ok 90
# Linear time, measured as processor time (user + system) so that a loaded
# machine does not make it flaky: a quadratic pass (a rescan of the file
# per node) takes minutes at these sizes. On a two-core machine under a
# load of about 9: 0.9 s, 2.3 s and 0.7 s (about twice that before values
# shrank: docs/architecture.md), and below 1 s each for the rest; since the
# syntax trees' memory is reused (docs/architecture.md), 0.42 s, 0.84 s
# and 0.4 s quiet and 0.5 s, 1.0 s and 0.45 s under a load of about 4, so
# 3 s for the 100000 lines still leaves room for a loaded machine;
# sanitizers slow a build down about 4 times.
cpu_scale=1
nm "$TC" 2>/dev/null | grep -q __asan_init && cpu_scale=4
# KIND N WANT(ok|limit) CPU-SECONDS
linear() {
	gen "$1" "$2" "$tmp/lin.py"
	cpu=$( (timeout 300 "$TC" compile "$tmp/lin.py" -k k -s '*fp32,*fp32,i32' -D BLOCK=16 --target c -o "$tmp/lin.c" \
		>/dev/null 2>"$tmp/err"; echo "rc $?"; times) | awk '/^rc / { rc = $2 } END {
		n = split($0, f, " "); t = 0
		for (i = 1; i <= n; i++) { split(f[i], ms, "m"); t += ms[1] * 60 + ms[2] }
		printf "%d %.2f\n", rc, t }')
	rc=${cpu%% *}
	secs=${cpu#* }
	what="linear time: $1 x $2 ($(wc -c <"$tmp/lin.py") bytes, $secs s of processor time)"
	if [ "$3" = ok ] && [ "$rc" -ne 0 ] || [ "$3" = limit ] && [ "$rc" -ne 1 ]; then
		fail "$what" "status $rc: $(head -1 "$tmp/err")"
	elif awk -v t="$secs" -v max="$(($4 * cpu_scale))" 'BEGIN { exit !(t > max) }'; then
		fail "$what" "more than $(($4 * cpu_scale)) s"
	else
		pass "$what: at most $(($4 * cpu_scale)) s"
	fi
}
linear plus 100000 ok 3
linear lines 100000 ok 3
linear longline 500000 limit 3
# Found quadratic, each fixed: a module of many kernels (every kernel kept
# a list of all the others: 10000 took 2.6 GB), many names (the
# specializer's names and the registers' were scanned per name), many ifs
# (each walked the whole function, and a loop's body per if in it).
linear kernels 10000 ok 3
linear names 20000 ok 3
linear ifs 5000 ok 3
linear loopifs 4000 ok 3
linear elif 900 ok 3
linear to 20000 ok 3
linear and 20000 ok 3
for kind in parens blocks; do
	awk -v kind=$kind 'BEGIN {
		if (kind == "parens") { printf "__global__ void k(int *p) { int v = "; for (i = 0; i < 100000; i++) printf "("; printf "threadIdx.x"; for (i = 0; i < 100000; i++) printf ")"; print "; p[v % 32] = __shfl_sync(0xffffffff, v, 0); }" }
		else { print "__global__ void k(int *p) {"; for (i = 0; i < 20000; i++) printf "if (threadIdx.x < %d) {\n", i; print "p[0] = __ballot_sync(0xffffffff, 1);"; for (i = 0; i < 20000; i++) print "}"; print "}" }
	}' >"$tmp/deep_$kind.cu"
	timeout 60 "$WC" "$tmp/deep_$kind.cu" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -le 2 ]; then pass "warpcheck on deeply nested $kind: status $rc"; else fail "warpcheck on deeply nested $kind" "status $rc"; fi
done
# Found by fuzz_warpcheck: a macro with an empty body (UB in the
# preprocessor, seen by UBSan); 20000 findings in one file (SARIF and JSON
# fingerprints counted every earlier finding: quadratic, 3 s here).
printf '#define EMPTY\n__global__ void k(int *p) { p[0] = __shfl_sync(0xffffffff, 1, 0); }\n' >"$tmp/empty_macro.cu"
"$WC" "$tmp/empty_macro.cu" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q 'H2 lane-mask' "$tmp/out" "$tmp/err" && ! grep -q 'runtime error' "$tmp/err"; then
	pass "warpcheck: a macro with an empty body"
else
	fail "warpcheck: a macro with an empty body" "status $rc: $(head -1 "$tmp/err")"
fi
awk 'BEGIN { print "__global__ void k(int *p) {\n  int lane = threadIdx.x % 32;"
	for (i = 0; i < 20000; i++) printf "  p[lane] += __shfl_xor_sync(0xffffffff, lane, %d);\n", i % 32; print "}" }' >"$tmp/shuffles.cu"
wc_scale=1
nm "$WC" 2>/dev/null | grep -q __asan_init && wc_scale=4
for spec in 'sarif|"warpcheck/v1": "' 'json|"fingerprint": "'; do
	format=${spec%%|*}
	key=${spec#*|}
	cpu=$( (timeout 300 "$WC" --format $format "$tmp/shuffles.cu" >"$tmp/out" 2>"$tmp/err"; echo "rc $?"; times) | awk '
		/^rc / { rc = $2 } END { n = split($0, f, " "); t = 0
		for (i = 1; i <= n; i++) { split(f[i], ms, "m"); t += ms[1] * 60 + ms[2] }
		printf "%d %.2f\n", rc, t }')
	rc=${cpu%% *}
	secs=${cpu#* }
	if [ "$rc" -eq 1 ] && [ "$(grep -c "$key" "$tmp/out")" -ge 20000 ] &&
		awk -v t="$secs" -v max="$((2 * wc_scale))" 'BEGIN { exit !(t <= max) }'; then
		pass "warpcheck --format $format, 20000 findings: $secs s of processor time (at most $((2 * wc_scale)))"
	else
		fail "warpcheck --format $format, 20000 findings" "status $rc, $(grep -c "$key" "$tmp/out") fingerprints, $secs s"
	fi
done

# Nesting 100000 deep, checked as processor time: each was quadratic in
# the depth (a walk of the #if stack per directive: 43 s for #if 1, 4 s for
# the stale-guard scan; a count of lines from the file's start per finding
# at a chip list far above: 73 s; a scan per statement through the ifs
# without braces inside it: 70 s; 200000 findings in nested ifs: 90 s),
# now 0.1 to 2 s each.
# NAME AWK-PROGRAM WANT-STATUS
wc_deep() {
	awk "BEGIN { n = 100000; $2 }" >"$tmp/deep_wc.cu"
	cpu=$( (timeout 300 "$WC" "$tmp/deep_wc.cu" >"$tmp/out" 2>"$tmp/err"; echo "rc $?"; times) | awk '
		/^rc / { rc = $2 } END { n = split($0, f, " "); t = 0
		for (i = 1; i <= n; i++) { split(f[i], ms, "m"); t += ms[1] * 60 + ms[2] }
		printf "%d %.2f\n", rc, t }')
	rc=${cpu%% *}
	secs=${cpu#* }
	if [ "$rc" -eq "$3" ] && awk -v t="$secs" -v max="$((4 * wc_scale))" 'BEGIN { exit !(t <= max) }'; then
		pass "warpcheck on $1: status $rc, $secs s of processor time (at most $((4 * wc_scale)))"
	else
		fail "warpcheck on $1" "status $rc (want $3), $secs s: $(head -2 "$tmp/err")"
	fi
}
wc_deep "100000 nested #if 1" 'for (i = 0; i < n; i++) print "#if 1"
	print "__global__ void k(int *p) { p[0] = __shfl_sync(0xffffffff, 1, 0); }"
	for (i = 0; i < n; i++) print "#endif"' 1
wc_deep "100000 nested #ifdef/#elif/#else" 'for (i = 0; i < n; i++) {
	if (i % 3 == 0) print "#ifdef X\n#elif 1"; else if (i % 3 == 1) print "#ifndef __HIP_PLATFORM_HCC__"; else print "#ifdef Y\n#else"
	print "__device__ int d" i "(int v) { return __shfl_sync(0xffffffff, v, 0); }" }
	for (i = 0; i < n; i++) print "#endif"' 1
wc_deep "100000 nested chip lists" 'for (i = 0; i < n; i++) { print "#if defined(__gfx90a__) || defined(__gfx942__)"
	print (i % 2 ? "#elif 1" : "#else"); print "#define WARP_SIZE" i " 64" }
	for (i = 0; i < n; i++) print "#endif"' 1
wc_deep "100000 nested ifs without braces" 'print "__global__ void k(int *p) {"
	for (i = 0; i < n; i++) printf "if (threadIdx.x < %d)\n", i
	print "p[0] = __ballot_sync(0xffffffff, 1);\n}"' 1
wc_deep "100000 nested blocks, each returning early" 'print "__global__ void k(int *p) {"
	for (i = 0; i < n; i++) printf "if (threadIdx.x < %d) {\n", i; print "return;"
	for (i = 0; i < n; i++) print "} p[0] = __ballot_sync(0xffffffff, 1);"; print "}"' 1

# One function of 100000 lines: 33000 ifs on a local each assigns, then a
# sync (H10 refines the local at each condition), flat and inside a loop.
# The function's flow was quadratic (a region test per assignment, every
# earlier assignment per condition: minutes), now about a third of a second.
for kind in flat loop; do
	awk -v kind=$kind 'BEGIN { print "__global__ void k(int *p) {\n  int lane = threadIdx.x % 32;\n  int v = 0;"
		if (kind == "loop") print "  for (int i = 0; i < 4; i++) {"
		for (i = 0; i < 33000; i++) printf "  if (v < %d) {\n    v = v + p[%d] + lane;\n  }\n", i % 32, i
		if (kind == "loop") print "  }"
		print "  __syncwarp();\n  p[lane] = __shfl_sync(0xffffffff, v, 0);\n}" }' >"$tmp/long_fn.cu"
	cpu=$( (timeout 300 "$WC" "$tmp/long_fn.cu" >"$tmp/out" 2>"$tmp/err"; echo "rc $?"; times) | awk '
		/^rc / { rc = $2 } END { n = split($0, f, " "); t = 0
		for (i = 1; i <= n; i++) { split(f[i], ms, "m"); t += ms[1] * 60 + ms[2] }
		printf "%d %.2f\n", rc, t }')
	rc=${cpu%% *}
	secs=${cpu#* }
	if [ "$rc" -eq 1 ] && grep -q 'H2 lane-mask' "$tmp/out" &&
		awk -v t="$secs" -v max="$((3 * wc_scale))" 'BEGIN { exit !(t <= max) }'; then
		pass "warpcheck on a function of $(wc -l <"$tmp/long_fn.cu") lines ($kind): $secs s of processor time (at most $((3 * wc_scale)))"
	else
		fail "warpcheck on a function of 100000 lines ($kind)" "status $rc, $secs s: $(head -2 "$tmp/out")"
	fi
done

# ---- arithmetic at the edges ----
# Constant folding: Python's integers, and a located error where the result
# leaves 64 bits; no trap, no UB, no hang.
cat >"$tmp/fold.py" <<'PY'
import triton
import triton.language as tl


@triton.jit
def fold(x_ptr, y_ptr, A: tl.constexpr, B: tl.constexpr, OP: tl.constexpr):
    i = tl.arange(0, 16)
    if OP == 0:
        c = A // B
    elif OP == 1:
        c = A % B
    elif OP == 2:
        c = A << B
    elif OP == 3:
        c = A >> B
    elif OP == 4:
        c = A * B
    elif OP == 5:
        c = A ** B
    else:
        c = A + B
    tl.store(y_ptr + i, tl.load(x_ptr + i) + c)
PY
# A B OP -> the folded constant, or "error: TEXT"
while read -r a b op want; do
	timeout 10 "$TC" compile "$tmp/fold.py" -s '*i64,*i64' -D A="$a" -D B="$b" -D OP="$op" --dump tir -o "$tmp/fold.tir" \
		2>"$tmp/err"
	rc=$?
	case $want in
	error:*)
		if [ $rc -eq 1 ] && grep -q "^$tmp/fold.py:[0-9]*:[0-9]*: error: ${want#error:}" "$tmp/err"; then
			pass "fold $a op$op $b: $want"
		else
			fail "fold $a op$op $b" "status $rc, $(head -1 "$tmp/err")"
		fi ;;
	*)
		if [ $rc -eq 0 ] && grep -q "const $want : i64" "$tmp/fold.tir"; then
			pass "fold $a op$op $b = $want"
		else
			fail "fold $a op$op $b" "status $rc, wanted $want: $(grep const "$tmp/fold.tir" | head -3 | tr '\n' ' ') $(head -1 "$tmp/err")"
		fi ;;
	esac
done <<'CASES'
-9223372036854775808 -1 0 error:integer.overflow
-9223372036854775808 -1 1 0
-9223372036854775807 -1 0 9223372036854775807
-7 2 0 -4
-7 2 1 1
7 -2 1 -1
7 0 0 error:division.by.zero
7 0 1 error:division.by.zero
1 70 2 error:integer.overflow
0 70 2 0
-1 100 3 -1
5 -1 2 error:negative.shift
4611686018427387904 2 4 error:integer.overflow
2 1000000000000000000 5 error:integer.overflow
1 1000000000000000000 5 1
-1 1000000000000000001 5 -1
3 39 5 4052555153018976267
9223372036854775807 1 6 error:integer.overflow
CASES
# Shifts by amounts past the width, on the C target against the interpreter
# (tests/robust/shifts.py); the kernel built with UBSan where cc has it.
ub=""
if printf 'int main(void){return 0;}\n' >"$tmp/ub.c" && cc -fsanitize=undefined "$tmp/ub.c" -o "$tmp/ub" 2>/dev/null; then
	ub="cc -fsanitize=undefined -fno-sanitize-recover=undefined"
else
	echo "robust: cc has no -fsanitize=undefined here: the shift kernels run without it"
fi
for sig in '*i32,*i32,*i32,*i32,i32' '*i64,*i64,*i64,*i64,i32' '*u32,*u32,*u32,*u32,i32' '*i8,*i8,*i8,*i8,i32'; do
	CC=${ub:-cc} TRITONC_CACHE="$tmp/cache" timeout 120 "$TC" run tests/robust/shifts.py -s "$sig" -D BLOCK=64 --arg n=1000 \
		--arg x_ptr=1000 --arg s_ptr=1000 --arg l_ptr=1000 --arg r_ptr=1000 --grid 16 --int-range 100 --check \
		--threads 2 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 0 ] && [ "$(grep -c ': ok$' "$tmp/out")" -eq 4 ] && ! grep -q "runtime error" "$tmp/err"; then
		pass "shifts past the width ($sig): C target = interpreter${ub:+, no UB}"
	else
		fail "shifts past the width ($sig)" "status $rc, $(grep -v ': ok$' "$tmp/out" | head -2) $(head -2 "$tmp/err")"
	fi
done
# CUDA and HIP compute shifts by a run-time amount the same way (C++'s
# << is undefined past the width, AMD's takes the amount modulo 32): through
# the helpers; a shift by a constant below the width stays a plain one.
cat >"$tmp/cshift.py" <<'PY'
import triton
import triton.language as tl


@triton.jit
def cshift(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i, mask=i < n, other=0)
    tl.store(y_ptr + i, (x << 3) | (x >> 31), mask=i < n)
PY
body() { sed -n '/__global__/,$p' "$1" | grep -v '^[[:space:]]*//'; }   # the kernel, less its source comments
for target in cuda:sm_90 hip:gfx90a hip:gfx1030; do
	for sig in '*i32,*i32,*i32,*i32,i32' '*i64,*i64,*i64,*i64,i32' '*u32,*u32,*u32,*u32,i32'; do
		w=$(echo "$sig" | sed 's/^\*\([iu]\)[a-z]*\([0-9]*\).*/\1\2/')
		"$TC" compile tests/robust/shifts.py -s "$sig" -D BLOCK=64 --target $target -o "$tmp/shift.gpu" 2>"$tmp/err"
		rc=$?
		body "$tmp/shift.gpu" >"$tmp/shift.body"
		if [ $rc -eq 0 ] && grep -q "= ([a-z0-9_]*)tc_shl_$w(" "$tmp/shift.body" && grep -q "= ([a-z0-9_]*)tc_shr_$w(" "$tmp/shift.body" &&
			grep -q "^TC_DEVICE tc_$w tc_shl_$w(" "$tmp/shift.gpu" && ! grep -q '<<\|>>' "$tmp/shift.body"; then
			pass "run-time shifts on $target ($sig): tc_shl_$w, tc_shr_$w"
		else
			fail "run-time shifts on $target ($sig)" "status $rc, $(grep -m2 '<<\|>>' "$tmp/shift.gpu") $(head -1 "$tmp/err")"
		fi
	done
	"$TC" compile "$tmp/cshift.py" -s '*i32,*i32,i32' -D BLOCK=64 --target $target -o "$tmp/cshift.gpu" 2>"$tmp/err"
	rc=$?
	body "$tmp/cshift.gpu" >"$tmp/cshift.body"
	if [ $rc -eq 0 ] && grep -q ' << 3)' "$tmp/cshift.body" && grep -q ' >> 31)' "$tmp/cshift.body" && ! grep -q 'tc_sh[lr]_' "$tmp/cshift.gpu"; then
		pass "constant shifts on $target: plain << and >>, no helpers"
	else
		fail "constant shifts on $target" "status $rc, $(grep -m2 'tc_sh\|<<' "$tmp/cshift.gpu") $(head -1 "$tmp/err")"
	fi
done

# ---- limits as Triton has them ----
lim_kernel() {
	printf 'import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(y_ptr, BLOCK: tl.constexpr):\n    %s\n    tl.store(y_ptr + tl.arange(0, 16), tl.sum(x) + tl.zeros((16,), tl.float32))\n' "$1" >"$tmp/lim.py"
}
while IFS='|' read -r body define want; do
	lim_kernel "$body"
	timeout 20 "$TC" compile "$tmp/lim.py" -s '*fp32' -D "$define" --target c -o "$tmp/lim.c" 2>"$tmp/err"
	rc=$?
	if [ "$want" = ok ] && [ $rc -eq 0 ]; then
		pass "limit: '$body' ($define) compiles"
	elif [ "$want" != ok ] && [ $rc -eq 1 ] && head -1 "$tmp/err" | grep -q "^$tmp/lim.py:[0-9]*:[0-9]*: error: $want"; then
		pass "limit: '$body' ($define): $want"
	else
		fail "limit: '$body' ($define)" "status $rc, wanted $want: $(head -1 "$tmp/err")"
	fi
done <<'CASES'
x = tl.zeros((1024, 1024), dtype=tl.float32)|BLOCK=4|ok
x = tl.arange(0, 2097152)|BLOCK=4|a tile of shape (2097152) has more than 1048576 elements, Triton's limit (2\*\*20)
x = tl.zeros((2048, 1024), dtype=tl.float32)|BLOCK=4|a tile of shape (2048, 1024) has more than 1048576 elements
x = tl.full((65536, 65536, 65536), 1, tl.int32)|BLOCK=4|a tile of shape (65536, 65536, 65536) has more than 1048576
x = tl.arange(0, 1024)[:, None] + tl.arange(0, 2048)[None, :]|BLOCK=4|a tile of shape (1024, 2048) has more than
x = tl.zeros((3, 4), dtype=tl.float32)|BLOCK=4|a tile of shape (3, 4): dimension 0 is 3, not a power of two
x = tl.arange(0, BLOCK)|BLOCK=6|arange(0, 6): its range, 6, must be a positive power of two
x = tl.arange(0, BLOCK)|BLOCK=0|arange(0, 0): its range, 0, must be a positive power of two
x = tl.arange(0, BLOCK)|BLOCK=4294967296|arange(0, 4294967296): its bounds must fit in int32
x = tl.arange(0, BLOCK)|BLOCK=99999999999999999999|-D BLOCK=99999999999999999999: not a constant (an integer that fits in 64 bits
x = tl.arange(0, BLOCK)|BLOCK=abc|-D BLOCK=abc: not a constant
x = tl.arange(0, 16)|BLCK=4|-D BLCK: kernel 'k' has no constexpr parameter of that name
CASES

# ---- tritonc run: arguments, buffers, memory ----
cat >"$tmp/run.py" <<'PY'
import triton
import triton.language as tl


@triton.jit
def twice(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i)
    tl.store(y_ptr + i, x * 2)
PY
while IFS='|' read -r extra want; do
	# shellcheck disable=SC2086
	TRITONC_CACHE="$tmp/cache" timeout 120 "$TC" run "$tmp/run.py" -s '*fp32,*fp32,i32' -D BLOCK=64 --grid 2 $extra \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$want" = ok ] && [ $rc -eq 0 ]; then
		pass "run $extra: runs"
	elif [ "$want" != ok ] && [ $rc -eq 1 ] && grep -q "error: $want" "$tmp/err"; then
		pass "run $extra: $want"
	else
		fail "run $extra" "status $rc, wanted '$want': $(head -2 "$tmp/err")"
	fi
done <<'CASES'
--arg n=128 --arg x_ptr=128 --arg y_ptr=128 --check|ok
--arg n=abc --arg x_ptr=128 --arg y_ptr=128|--arg n: 'abc' is not an integer
--arg n=1.5 --arg x_ptr=128 --arg y_ptr=128|--arg n: '1.5' is not an integer
--arg unknown=5 --arg n=128|--arg unknown: kernel 'twice' has no such argument
--arg n --arg x_ptr=128|--arg takes NAME=VALUE, not 'n'
--arg n=99999999999 --arg x_ptr=128 --arg y_ptr=128|--arg n: 99999999999 does not fit in its type
--arg n=128 --arg x_ptr=0 --arg y_ptr=128|--arg x_ptr: a buffer needs at least one element
--arg n=128 --arg x_ptr=128 --arg y_ptr=128 --threads 0|--threads takes a count from 1 to 1024, not '0'
--arg n=128 --arg x_ptr=128 --arg y_ptr=128 -D NOPE=1|-D NOPE: kernel 'twice' has no constexpr parameter
--arg n=128 --arg x_ptr=128 --arg y_ptr=128 -D n=5|the signature has more types than 'twice' has parameters
--arg n=128 --arg x_ptr=128 --arg y_ptr=128 --grid 2147483647,2147483647,2147483647|the grid 2147483647 x 2147483647 x 2147483647 has too many programs
--arg n=128 --arg x_ptr=100 --arg y_ptr=128|the kernel read x_ptr\[100\] at line 8, past its 100 elements
--arg n=128 --arg x_ptr=128 --arg y_ptr=124|the kernel wrote y_ptr\[124\] at line 9, past its 124 elements
--arg n=128 --arg x_ptr=100000000000000 --arg y_ptr=128|out of memory: the buffers need about
CASES
# A store before a buffer's start, into the bytes below a page that the
# leading guard page does not cover: stopped, not missed.
sed 's/tl.store(y_ptr + i, x \* 2)/tl.store(y_ptr + i - 3, x * 2)/' "$tmp/run.py" >"$tmp/under.py"
TRITONC_CACHE="$tmp/cache" timeout 120 "$TC" run "$tmp/under.py" -s '*fp32,*fp32,i32' -D BLOCK=64 --grid 2 \
	--arg n=128 --arg x_ptr=128 --arg y_ptr=125 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "error: the kernel wrote y_ptr\[-3\] at line 9, before its 125 elements" "$tmp/err"; then
	pass "run: a store before a buffer is reported"
else
	fail "run: a store before a buffer" "status $rc: $(head -2 "$tmp/err")"
fi
# Every access outside a buffer is stopped and named, also the ones the
# guard pages miss: reads less than a page before the start, and past
# the end inside the last page (sizes that end mid-page, for element
# sizes 1 to 8). Loads and stores; masked-off lanes are never checked.
cat >"$tmp/stray.py" <<'PY'
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, n, READ: tl.constexpr, WRITE: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i, mask=i < n, other=1)
    x = x + tl.load(x_ptr + READ)
    tl.store(y_ptr + i, x, mask=i < n)
    tl.store(y_ptr + WRITE + i * 0, x, mask=i == 0)
PY
while read -r dt n read write want; do
	TRITONC_CACHE="$tmp/cache" timeout 120 "$TC" run "$tmp/stray.py" -s "*$dt,*$dt,i32" -D BLOCK=1024 \
		-D READ="$read" -D WRITE="$write" --grid 1 --arg n="$n" --arg x_ptr="$n" --arg y_ptr="$n" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	what="run, $dt x $n, reading x[$read], writing y[$write]"
	if [ "$want" = ok ]; then
		if [ $rc -eq 0 ]; then pass "$what: runs"; else fail "$what" "status $rc: $(head -2 "$tmp/err")"; fi
	elif [ $rc -eq 1 ] && grep -q "^tritonc: error: the kernel $want" "$tmp/err"; then
		pass "$what: $want"
	else
		fail "$what" "status $rc, wanted 'the kernel $want': $(head -2 "$tmp/err")"
	fi
done <<'CASES'
fp32 100 -1 0 read x_ptr\[-1\] at line 9, before its 100 elements
fp32 1001 -7 0 read x_ptr\[-7\] at line 9, before its 1001 elements
fp32 1001 1001 0 read x_ptr\[1001\] at line 9, past its 1001 elements
fp32 1001 1004 0 read x_ptr\[1004\] at line 9, past its 1001 elements
fp32 1001 1000 -1 wrote y_ptr\[-1\] at line 11, before its 1001 elements
fp32 1001 1000 1003 wrote y_ptr\[1003\] at line 11, past its 1001 elements
fp32 1001 1000 1000 ok
fp16 999 -1 0 read x_ptr\[-1\] at line 9, before its 999 elements
fp16 999 -7 0 read x_ptr\[-7\] at line 9, before its 999 elements
fp16 999 999 0 read x_ptr\[999\] at line 9, past its 999 elements
fp16 999 1002 0 read x_ptr\[1002\] at line 9, past its 999 elements
fp16 999 0 999 wrote y_ptr\[999\] at line 11, past its 999 elements
fp16 999 998 998 ok
i8 777 -1 0 read x_ptr\[-1\] at line 9, before its 777 elements
i8 777 -7 0 read x_ptr\[-7\] at line 9, before its 777 elements
i8 777 777 0 read x_ptr\[777\] at line 9, past its 777 elements
i8 777 780 0 read x_ptr\[780\] at line 9, past its 777 elements
i8 777 0 -7 wrote y_ptr\[-7\] at line 11, before its 777 elements
i8 777 776 0 ok
i64 3 -1 0 read x_ptr\[-1\] at line 9, before its 3 elements
i64 3 -7 0 read x_ptr\[-7\] at line 9, before its 3 elements
i64 3 3 0 read x_ptr\[3\] at line 9, past its 3 elements
i64 3 6 0 read x_ptr\[6\] at line 9, past its 3 elements
i64 3 0 3 wrote y_ptr\[3\] at line 11, past its 3 elements
i64 3 2 2 ok
CASES
# A kernel that never finishes (a while on a run-time condition that stays
# true: x cycles through [0, 16)) is stopped at --timeout, on one worker
# thread and on several, with the --check interpreter's time limit too;
# --timeout takes seconds.
cp tests/robust/spin.py "$tmp/spin.py"
for extra in "--threads 1" "--threads 4 --check" ""; do
	start=$(now_ms)
	# shellcheck disable=SC2086
	TRITONC_CACHE="$tmp/cache" timeout 60 "$TC" run "$tmp/spin.py" -s '*i32,*i32,i32' -D BLOCK=16 --grid 4 --arg n=1 \
		--arg x_ptr=16 --arg y_ptr=16 --timeout 1 $extra >"$tmp/out" 2>"$tmp/err"
	rc=$?
	ms=$(($(now_ms) - start))
	if [ $rc -eq 1 ] && grep -q "^tritonc: error: kernel 'spin' did not finish within 1 s$" "$tmp/err" && [ $ms -lt 15000 ]; then
		pass "run a kernel that never finishes ($extra): stopped at --timeout 1 ($ms ms)"
	else
		fail "run a kernel that never finishes ($extra)" "status $rc after $ms ms: $(head -2 "$tmp/err")"
	fi
done
for t in -1 abc 1e99; do
	TRITONC_CACHE="$tmp/cache" timeout 60 "$TC" run "$tmp/spin.py" -s '*i32,*i32,i32' -D BLOCK=16 --timeout "$t" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q "error: --timeout takes seconds from 0 (no limit) to 31536000, not '$t'" "$tmp/err"; then
		pass "run --timeout $t: refused"
	else
		fail "run --timeout $t" "status $rc: $(head -2 "$tmp/err")"
	fi
done
# tl.device_print of a long message in the --check interpreter: each line
# whole, as the C kernel prints it (the interpreter's lines were cut at 512
# bytes, the text after the indices at 256).
long=$(awk 'BEGIN { for (i = 0; i < 3000; i++) printf "m" }')
cat >"$tmp/prnlong.py" <<PY
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, B: tl.constexpr):
    i = tl.arange(0, B)
    x = tl.load(x_ptr + i, mask=i < n)
    tl.device_print("start $long end", x, x + 1)
PY
TRITONC_CACHE="$tmp/cache" timeout 60 "$TC" run "$tmp/prnlong.py" -s '*fp32,i32' -D B=8 --grid 1 --arg n=8 --arg x_ptr=8 \
	--check >"$tmp/out" 2>"$tmp/err"
rc=$?
sed -n '/^ran k/q;p' "$tmp/out" | sort >"$tmp/prn.c.txt"
sed -n '/^ran k/,$p' "$tmp/out" | grep '^pid' | sort >"$tmp/prn.interp.txt"
if [ $rc -eq 0 ] && [ "$(grep -c " start $long end: (operand [01]) [-0-9.]*$" "$tmp/prn.interp.txt")" -eq 16 ] &&
	cmp -s "$tmp/prn.c.txt" "$tmp/prn.interp.txt"; then
	pass "interpreter: tl.device_print of a 3000-byte message, 16 values, printed whole as the C kernel prints them"
else
	fail "interpreter: tl.device_print of a long message" "status $rc, $(wc -l <"$tmp/prn.interp.txt") lines, $(head -c 300 "$tmp/prn.interp.txt") $(head -2 "$tmp/err")"
fi
# A split scan on one worker thread (reported to crash; its programs wait
# for those before them along the row, so one thread must run them in order).
TRITONC_CACHE="$tmp/cache" timeout 300 "$TC" run tests/heldout/cumsum_bf16.py --threads 1 --check --arg xnumel=1024 \
	--arg r0_numel=512 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^check out_ptr0: 524288 elements .*: ok$' "$tmp/out"; then
	pass "run a split scan with --threads 1: the interpreter's results"
else
	fail "run a split scan with --threads 1" "status $rc: $(grep -v ': ok$' "$tmp/out" | head -2) $(tail -1 "$tmp/err")"
fi
# Out of memory anywhere: a message and status 1, never an abort.
gen lines 100000 "$tmp/big.py"
# AddressSanitizer reserves terabytes of shadow memory, so a build with it
# (make asan) cannot run under ulimit -v: its allocator is limited instead.
mem_limit="ulimit -v 300000"
if nm "$TC" 2>/dev/null | grep -q __asan_init; then
	mem_limit="export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:soft_rss_limit_mb=300"
fi
($mem_limit; timeout 120 "$TC" compile "$tmp/big.py" -s '*fp32,*fp32,i32' -D BLOCK=16 --target c -o "$tmp/big.c") \
	2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "error: out of memory" "$tmp/err" && [ ! -e "$tmp/big.c" ]; then
	pass "out of memory: 'error: out of memory', status 1"
else
	fail "out of memory" "status $rc: $(tail -1 "$tmp/err")"
fi

# ---- special input files: clear errors, no hang ----
mkfifo "$tmp/in.fifo"
mkdir "$tmp/in.dir"
truncate -s 65M "$tmp/huge.py"
zero=/dev/zero   # only read
if [ "$(id -u)" -eq 0 ] && mknod "$tmp/zero" c 1 5 2>/dev/null; then zero=$tmp/zero; fi
for spec in "in.fifo|not a regular file" "$zero|not a regular file" "in.dir|Is a directory" "huge.py|larger than 64 MiB"; do
	f=${spec%%|*}
	want=${spec#*|}
	case $f in /*) ;; *) f=$tmp/$f ;; esac
	timeout 20 "$TC" compile "$f" -s '*fp32' -o "$tmp/sp.out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q "$want" "$tmp/err"; then
		pass "tritonc on $(basename "$f"): $want"
	else
		fail "tritonc on $(basename "$f")" "status $rc: $(head -1 "$tmp/err")"
	fi
	timeout 20 "$WC" "$f" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ -d "$f" ] && [ $rc -eq 0 ]; then
		pass "warpcheck on an empty folder: nothing to check"
	elif [ ! -d "$f" ] && [ $rc -eq 2 ] && [ -s "$tmp/err" ]; then
		pass "warpcheck on $(basename "$f"): an error, no hang"
	else
		fail "warpcheck on $(basename "$f")" "status $rc: $(head -1 "$tmp/err")"
	fi
done
[ -c /dev/zero ] || fail "/dev/zero" "is no longer a character device"
# a tree with a symlink loop and links to the same file: each file once
mkdir -p "$tmp/tree/a/b"
cp tests/warpcheck/cases/fix_cuda.cu "$tmp/tree/a/b/k.cu"
ln -s .. "$tmp/tree/a/b/up"
ln -s ../a "$tmp/tree/a/loop"
ln -s b/k.cu "$tmp/tree/a/k_link.cu"
ln "$tmp/tree/a/b/k.cu" "$tmp/tree/a/k_hard.cu"
timeout 60 "$WC" --format json "$tmp/tree" "$tmp/tree/a" >"$tmp/tree.json" 2>"$tmp/err"
rc=$?
n=$(grep -o '"file": *"[^"]*"' "$tmp/tree.json" | sort -u | wc -l)
if [ $rc -eq 1 ] && [ "$n" -eq 1 ]; then
	pass "warpcheck on a tree with a symlink loop and links: the file is checked once"
else
	fail "warpcheck on a symlink loop" "status $rc, $n files reported: $(grep -o '"file": *"[^"]*"' "$tmp/tree.json" | sort -u | head -5 | tr '\n' ' ') $(head -2 "$tmp/err")"
fi

# ---- messages ----
: >"$tmp/empty.py"
msg() {   # FILE SIG WANT
	timeout 20 "$TC" compile "$1" -s "$2" --target c -o "$tmp/msg.out" 2>"$tmp/err"
	rc=$?
	# a located message shows its line and a caret under the column
	if [ $rc -eq 1 ] && head -1 "$tmp/err" | grep -q "$3" && [ ! -e "$tmp/msg.out" ] &&
		{ [ "${3#^}" = "$3" ] || sed -n 3p "$tmp/err" | grep -q '^ *| *\^$'; }; then
		pass "message: $3"
	else
		fail "message '$3'" "status $rc: $(head -1 "$tmp/err")"
	fi
}
msg "$tmp/empty.py" '*fp32' "has no @triton.jit kernel"
kern() { printf 'import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x_ptr, y_ptr):\n    i = tl.arange(0, 16)\n    %s\n' "$1" >"$tmp/m.py"; }
kern 'tl.store(y_ptr + i, foo(tl.load(x_ptr + i)))'
msg "$tmp/m.py" '*fp32,*fp32' "^$tmp/m.py:8:[0-9]*: error: unsupported call 'foo'"
kern 'é = tl.load(x_ptr + i)'
msg "$tmp/m.py" '*fp32,*fp32' "^$tmp/m.py:8:5: error: non-ASCII character U+00E9 'é': Unicode identifiers are not supported"
kern 'tl.store(y_ptr + i, x_ptr + i)'
msg "$tmp/m.py" '*fp32,*fp32' "^$tmp/m.py:8:5: error: cannot store a pointer into a buffer of fp32"

# ---- found by fuzzing (tests/fuzz): each under the sanitizers too (make asan-quick) ----
# An error inside an inlined @triton.jit call (or in one of its arguments)
# jumped out of the call with its argument arrays on the heap: a leak that
# LeakSanitizer reports on this error path (fuzz_specialize, fuzz_lower).
printf 'import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef helper(x, y=1):\n    return x + not_defined\n\n\n@triton.jit\ndef k(x_ptr, BLOCK: tl.constexpr):\n    i = tl.arange(0, BLOCK)\n    tl.store(x_ptr + i, helper(tl.load(x_ptr + i), y=2))\n' >"$tmp/inl.py"
lim "$TC" compile "$tmp/inl.py" -k k -s '*fp32' -D BLOCK=16 --target c -o "$tmp/inl.c" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && head -1 "$tmp/err" | grep -q "^$tmp/inl.py:7:16: error: undefined name 'not_defined'" &&
	! grep -q "Sanitizer" "$tmp/err"; then
	pass "fuzz finding: an error inside an inlined call is located, nothing leaks"
else
	fail "fuzz finding: an error inside an inlined call" "status $rc: $(grep -m2 'error\|Sanitizer' "$tmp/err")"
fi
# tl.device_print kept each printed value's format string on the heap,
# never freed with the kernel (fuzz_lower; the C target prints it).
printf 'import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x_ptr, n, B: tl.constexpr):\n    i = tl.arange(0, B)\n    x = tl.load(x_ptr + i, mask=i < n)\n    tl.device_print("x", x)\n    print("n", n)\n' >"$tmp/prn.py"
lim "$TC" compile "$tmp/prn.py" -k k -s '*fp32,i32' -D B=16 --target c -o "$tmp/prn.c" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q 'printf' "$tmp/prn.c" && ! grep -q "Sanitizer" "$tmp/err"; then
	pass "fuzz finding: tl.device_print compiles to printf, nothing leaks"
else
	fail "fuzz finding: tl.device_print" "status $rc: $(grep -m2 'error\|Sanitizer' "$tmp/err")"
fi
# An #if on a macro with an empty body, before any macro with a body:
# pointer arithmetic on the still-NULL table of bodies (UB, seen by UBSan;
# fuzz_warpcheck).
printf '#define IS_CDNA\n#if IS_CDNA\n#define W 64\n#endif\n__global__ void k(int *p) { p[0] = __shfl_sync(0xffffffff, 1, 0); }\n' >"$tmp/empty_if.cu"
lim "$WC" "$tmp/empty_if.cu" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q 'H2 lane-mask' "$tmp/out" && ! grep -q 'runtime error\|Sanitizer' "$tmp/err"; then
	pass "fuzz finding: warpcheck on #if of an empty macro"
else
	fail "fuzz finding: warpcheck on #if of an empty macro" "status $rc: $(head -2 "$tmp/err")"
fi
