#!/bin/sh
# Runs test suites on a build with AddressSanitizer, LeakSanitizer and
# UBSan (make asan, make asan-quick) and fails on any report of theirs.
#   BUILD=build-asan BIN=build-asan/bin tests/sanitize.sh [SUITE...]
# With no SUITE, every suite (tests/run.sh). Each report goes to a log file
# of its own, so one is seen even where a test throws the program's stderr
# away or expects the status 1 that a leak report also exits with; after
# the suites, every log holding a report is a failing case, and the first
# lines of each are shown.
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build-asan}
BIN=${BIN:-$BUILD/bin}
export BUILD BIN
nm "$BIN/tritonc" 2>/dev/null | grep -q __asan_init || { echo "FAIL sanitize: $BIN/tritonc is not built with AddressSanitizer"; exit 1; }
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:log_path=$logs/asan
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$logs/ubsan
LSAN_OPTIONS=report_objects=1
export ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
# The Python package's extension is built from the sanitized objects; the
# interpreter is not, so it runs with the sanitizers' runtime preloaded
# (tests/python/suite.sh takes $PYTHON), leak checking off for it alone:
# CPython keeps its objects to the end by design.
rt=$(${CC:-clang} -print-file-name="libclang_rt.asan-$(uname -m).so" 2>/dev/null)
py=
for p in ${PYTHON:-} python3 /usr/bin/python3; do   # the one tests/python/suite.sh takes: with numpy
	if [ -z "$py" ] && "$p" -c 'import numpy' 2>/dev/null; then py=$(command -v "$p"); fi
done
if [ -f "$rt" ] && [ -n "$py" ]; then
	printf '#!/bin/sh\nLD_PRELOAD="%s${LD_PRELOAD:+ $LD_PRELOAD}" ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" exec "%s" "$@"\n' \
		"$rt" "$py" >"$logs/python3"
	chmod +x "$logs/python3"
	PYTHON=$logs/python3
	export PYTHON
fi
status=0
if [ $# -eq 0 ]; then
	tests/run.sh || status=1
else
	for suite in "$@"; do
		echo "== $suite"
		"$suite" >"$logs/out" 2>&1 || status=1
		grep -v '^PASS ' "$logs/out"
		grep -c '^PASS ' "$logs/out" | sed 's/^/  passed: /'
		grep -q '^FAIL ' "$logs/out" && status=1
	done
fi
reports=0
for f in "$logs"/asan.* "$logs"/ubsan.*; do
	[ -f "$f" ] || continue
	# a soft memory limit that a test sets on purpose is a note, not a report
	grep -q 'ERROR: \|runtime error: \|SUMMARY: ' "$f" || continue
	reports=$((reports + 1))
	echo "FAIL sanitize: a report ($(grep -m1 'SUMMARY: \|runtime error: ' "$f")):"
	head -30 "$f" | sed 's/^/    /'
done
if [ ! -c /dev/null ]; then
	echo "FAIL sanitize: /dev/null is no longer a character device: a test wrote over it"
	status=1
fi
if [ $reports -eq 0 ]; then
	echo "PASS sanitize: no AddressSanitizer, LeakSanitizer or UBSan report"
else
	status=1
fi
exit $status
