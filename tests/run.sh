#!/bin/sh
# Runs every test suite and prints the totals.
#
# A suite is an executable tests/*/suite.sh or a unit-test program in
# $BUILD/tests/. Each prints one line per case, starting with "PASS " or
# "FAIL "; anything else is shown as it is. The last line of this script is
# "N passed, N failed", and its exit status is 1 when anything failed.
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
BIN=${BIN:-bin}
export BUILD BIN
log=$(mktemp)
trap 'rm -f "$log" "$log.all"' EXIT
status=0
for suite in tests/*/suite.sh $BUILD/tests/*; do
	[ -x "$suite" ] || continue
	case "$suite" in *.d|*.o) continue ;; esac
	echo "== $suite"
	"$suite" >"$log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$log"; then
		echo "FAIL $suite: exited with status $rc and reported no failing case" >>"$log"
	fi
	grep -v '^PASS ' "$log"
	grep -c '^PASS ' "$log" | sed 's/^/  passed: /'
	cat "$log" >>"$log.all"
	: >"$log"
done
passed=$(grep -c '^PASS ' "$log.all" 2>/dev/null || true)
failed=$(grep -c '^FAIL ' "$log.all" 2>/dev/null || true)
rm -f "$log.all"
passed=${passed:-0}
failed=${failed:-0}
[ "$failed" -eq 0 ] || status=1
[ "$passed" -gt 0 ] || { echo "no test ran"; status=1; }
echo "$passed passed, $failed failed"
exit $status
