#!/bin/sh
# Runs every test suite and prints the totals.
#
# A suite is an executable tests/*/suite.sh or a unit-test program in
# $BUILD/tests/. Each prints one line per case, starting with "PASS " or
# "FAIL "; anything else is shown as it is. Suites run side by side, as
# many at once as there are cores (JOBS=N to choose), and their reports
# are shown in order. The last line of this script is "N passed, N failed",
# and its exit status is 1 when anything failed.
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
BIN=${BIN:-bin}
export BUILD BIN
jobs_max=${JOBS:-$(nproc 2>/dev/null || echo 1)}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Start every suite, at most jobs_max at a time; suite i writes $dir/i.log
# and, when it ends, $dir/i.rc.
n=0
for suite in tests/*/suite.sh $BUILD/tests/*; do
	[ -x "$suite" ] || continue
	case "$suite" in *.d|*.o) continue ;; esac
	n=$((n + 1))
	echo "$suite" >"$dir/$n.name"
	( start=$(date +%s); "$suite" >"$dir/$n.log" 2>&1; rc=$?; echo $(($(date +%s) - start)) >"$dir/$n.s"
	  echo $rc >"$dir/$n.rc" ) &
	while [ "$(ls "$dir" | grep -c '\.name$')" -ge $(($(ls "$dir" | grep -c '\.rc$') + jobs_max)) ]; do
		sleep 0.2
	done
done
wait

status=0
: >"$dir/all"
i=0
while [ $i -lt $n ]; do
	i=$((i + 1))
	suite=$(cat "$dir/$i.name")
	rc=$(cat "$dir/$i.rc")
	echo "== $suite ($(cat "$dir/$i.s") s)"
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$dir/$i.log"; then
		echo "FAIL $suite: exited with status $rc and reported no failing case" >>"$dir/$i.log"
	fi
	grep -v '^PASS ' "$dir/$i.log"
	grep -c '^PASS ' "$dir/$i.log" | sed 's/^/  passed: /'
	cat "$dir/$i.log" >>"$dir/all"
done
# No test may replace a device node (as root, a rename over /dev/null breaks
# every later program on the machine).
if [ -c /dev/null ]; then
	echo "PASS /dev/null is still a character device" >>"$dir/all"
else
	echo "FAIL /dev/null is no longer a character device: a test wrote over it"
	echo "FAIL /dev/null replaced" >>"$dir/all"
fi
passed=$(grep -c '^PASS ' "$dir/all" 2>/dev/null || true)
failed=$(grep -c '^FAIL ' "$dir/all" 2>/dev/null || true)
passed=${passed:-0}
failed=${failed:-0}
[ "$failed" -eq 0 ] || status=1
[ "$passed" -gt 0 ] || { echo "no test ran"; status=1; }
echo "$passed passed, $failed failed"
exit $status
