#!/bin/sh
# The Python package (python/): builds the extension in place for a Python
# with numpy, then runs test_api.py on numpy arrays at warp width 32 and 64,
# test_compile.py (what compiling costs: autotune configurations, the disk
# cache across processes), a script with `import triton` through `python3 -m tritonc` (as a file and
# with -m), a pytest file through `python3 -m tritonc -m pytest`, `pip install ./python`, and
# `python3 -m tritonc` without arguments. A missing numpy, pytest or Python
# headers is a failure, not a skip.
cd "$(dirname "$0")/../.." || exit 2
BUILD=${BUILD:-build}
pick_python() {
	for p in ${PYTHON:-} python3 /usr/bin/python3; do
		if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy, sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null; then
			echo "$p"
			return
		fi
	done
}
py=$(pick_python)
if [ -z "$py" ]; then
	echo "FAIL python: no Python with numpy and its headers (install python3-dev and python3-numpy)"
	exit 1
fi
if ! make -s python PYTHON="$py" BUILD="$BUILD" >/dev/null 2>"${TMPDIR:-/tmp}/tc-python-build.$$"; then
	echo "FAIL python: make python failed:"
	tail -20 "${TMPDIR:-/tmp}/tc-python-build.$$"
	rm -f "${TMPDIR:-/tmp}/tc-python-build.$$"
	exit 1
fi
rm -f "${TMPDIR:-/tmp}/tc-python-build.$$"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TRITONC_CACHE="$work/cache"
status=0
for w in 32 64; do
	TRITONC_WARP_SIZE=$w "$py" tests/python/test_api.py || status=1
done
# compiling: autotune configurations once each on several threads, the disk cache across processes
"$py" tests/python/test_compile.py || status=1
out=$(PYTHONPATH=python "$py" -m tritonc tests/python/triton_script.py 777 2>&1)
if [ "$out" = "ok 777" ]; then echo "PASS python -m tritonc SCRIPT.py (import triton)"; else echo "FAIL python -m tritonc SCRIPT.py: $out"; status=1; fi
out=$(cd tests/python && PYTHONPATH=../../python TRITONC_WARP_SIZE=64 "$py" -m tritonc -m triton_script 1234 2>&1)
if [ "$out" = "ok 1234" ]; then echo "PASS python -m tritonc -m MODULE (W=64)"; else echo "FAIL python -m tritonc -m MODULE: $out"; status=1; fi
# pytest through tritonc: a test file with `import triton` (python3-pytest)
out=$(cd "$work" && PYTHONPATH="$OLDPWD/python" "$py" -m tritonc -m pytest -q -p no:cacheprovider "$OLDPWD/tests/python/pytest_case" 2>&1)
rc=$?
if [ $rc -eq 0 ] && echo "$out" | grep -q "^4 passed"; then
	echo "PASS python -m tritonc -m pytest (import triton in a test file)"
else
	echo "FAIL python -m tritonc -m pytest: status $rc"
	echo "$out" | tail -20
	status=1
fi
# pip install ./python (from a copy of the sources: the build writes beside them), then a Triton
# script run by the installed package alone
mkdir -p "$work/pkg" && cp -r python src include "$work/pkg/" && rm -f "$work/pkg"/python/tritonc/_tritonc*.so
if "$py" -m pip install --no-build-isolation --no-deps --target "$work/site" "$work/pkg/python" >"$work/pip.log" 2>&1; then
	out=$(cd "$work" && PYTHONPATH="$work/site" "$py" -m tritonc "$OLDPWD/tests/python/triton_script.py" 321 2>&1)
	where=$(cd "$work" && PYTHONPATH="$work/site" "$py" -c 'import tritonc; print(tritonc.__file__)' 2>&1)
	case "$where" in "$work/site/"*) ;; *) out="imported from $where";; esac
	if [ "$out" = "ok 321" ]; then echo "PASS python pip install ./python, then a Triton script"; else echo "FAIL python pip install ./python: $out"; status=1; fi
else
	echo "FAIL python pip install ./python:"
	tail -15 "$work/pip.log"
	status=1
fi
PYTHONPATH=python "$py" -m tritonc >"$work/usage" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q usage "$work/usage"; then echo "PASS python -m tritonc without a script: usage, status 2"; else echo "FAIL python -m tritonc without a script: status $rc"; status=1; fi
out=$(PYTHONPATH=python TRITONC_DUMP="$work/dump" "$py" -m tritonc tests/python/triton_script.py 99 2>&1)
if [ "$out" = "ok 99" ] && ls "$work/dump"/scale_add-*.c >/dev/null 2>&1 && grep -q scale_add_launch "$work/dump"/scale_add-*.c; then
	echo "PASS python TRITONC_DUMP writes the generated source"
else
	echo "FAIL python TRITONC_DUMP: $out"
	status=1
fi
out=$(PYTHONPATH=python TRITONC_WARP_SIZE=48 "$py" -m tritonc tests/python/triton_script.py 5 2>&1)
case "$out" in *"TRITONC_WARP_SIZE must be 32 or 64"*) echo "PASS python TRITONC_WARP_SIZE=48 is refused";;
	*) echo "FAIL python TRITONC_WARP_SIZE=48: $out"; status=1;; esac
exit $status
