#!/bin/sh
# Execution tests carried by the kernels' own files: each "# run: ARGS" line
# of a tests/exec/*.py is run as `tritonc run FILE ARGS --check` on the C
# target lowered for 32-lane and for 64-lane warps; the run must succeed and
# every buffer must match the tile-IR interpreter ("check NAME: ...: ok").
# Adding a case is adding a line to the kernel's file. (tests/unit/test_exec.c
# keeps the cases that check more than agreement with the interpreter.)
cd "$(dirname "$0")/../.." || exit 2
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# "# run-64k: ARGS" lines likewise on the C target with AMD's 64 KiB block
# of shared memory (c:wave32-64k, c:wave64-64k, and c:cdna3: gfx94x's
# matrix instructions); "# run-wgmma: ARGS" lines on c:wgmma (sm_90a's
# wgmma and its pipelines, modelled lane by lane) and on c and c:wave64.
for f in tests/exec/*.py; do
	{ sed -n 's/^# run: //p' "$f" | sed 's/^/c c:wave64|/'
	  sed -n 's/^# run-64k: //p' "$f" | sed 's/^/c:wave32-64k c:wave64-64k c:cdna3|/'
	  sed -n 's/^# run-wgmma: //p' "$f" | sed 's/^/c:wgmma c c:wave64|/'; } >"$tmp/runs"
	n=0
	while IFS='|' read -r targets args; do
		n=$((n + 1))
		for target in $targets; do
			name="$(basename "$f") run $n on $target"
			# shellcheck disable=SC2086
			"$BIN/tritonc" run "$f" $args --target "$target" --check --threads 2 \
				>"$tmp/out" 2>"$tmp/err" </dev/null
			rc=$?
			checks=$(grep -c '^check ' "$tmp/out")
			if [ $rc -ne 0 ]; then
				echo "FAIL exec $name: status $rc: $(grep -v '^tritonc: note' "$tmp/err" | head -2) $(grep -m1 FAIL "$tmp/out")"
			elif [ "$checks" -eq 0 ] || grep '^check ' "$tmp/out" | grep -qv ': ok$'; then
				echo "FAIL exec $name: $(grep '^check ' "$tmp/out" | grep -v ': ok$' | head -2)"
			else
				echo "PASS exec $name: $checks buffers match the interpreter"
			fi
		done
	done <"$tmp/runs"
done
# device_print's lines, against the interpreter's
sh tests/exec/print.sh
