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
timeout 20 cat "$tmp/fifo" >"$tmp/fifo.got" &
reader=$!
# shellcheck disable=SC2086
lim "$TC" compile $K $KARGS -o "$tmp/fifo" 2>"$tmp/err"
rc=$?
wait $reader
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
