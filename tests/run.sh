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

# Suite i (in the order of the reports) is named in $dir/i.name.
n=0
for suite in tests/*/suite.sh $BUILD/tests/*; do
	[ -x "$suite" ] || continue
	case "$suite" in *.d|*.o) continue ;; esac
	n=$((n + 1))
	echo "$suite" >"$dir/$n.name"
done

# Start every suite, at most jobs_max at a time; suite i writes $dir/i.log
# and, when it ends, $dir/i.rc. The longest ones start first, so that the
# last to end are short ones and no core idles at the end.
started=0
start_suite() { # i
	suite=$(cat "$dir/$1.name")
	( start=$(date +%s); "$suite" >"$dir/$1.log" 2>&1; rc=$?; echo $(($(date +%s) - start)) >"$dir/$1.s"
	  echo $rc >"$dir/$1.rc" ) &
	: >"$dir/$1.started"
	started=$((started + 1))
	while [ "$started" -ge $(($(ls "$dir" | grep -c '\.rc$') + jobs_max)) ]; do
		sleep 0.2
	done
}
for slow in tests/emit/suite.sh $BUILD/tests/test_exec tests/warpcheck/suite.sh $BUILD/tests/test_heldout \
	$BUILD/tests/test_gemm; do
	i=0
	while [ $i -lt $n ]; do
		i=$((i + 1))
		[ "$(cat "$dir/$i.name")" = "$slow" ] && [ ! -e "$dir/$i.started" ] && start_suite $i
	done
done
i=0
while [ $i -lt $n ]; do
	i=$((i + 1))
	[ -e "$dir/$i.started" ] || start_suite $i
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
