#!/bin/sh
# Triton 3.6's tutorial kernels (python/tutorials 01-11 of the Triton
# repository, not kept here: give their folder) on the CPU: each case of
# bench/tutorials/cpu_cases.txt is compiled with its tutorial's constexprs
# for cuda:sm_90, hip:gfx90a, hip:gfx1030 and c, and run on c, c:wave64 and
# c:wgmma (the last models sm_90a's wgmma and bulk tensor copies lane by
# lane, mbarrier waits included) (`tritonc run --check`, small sizes that do not divide the blocks, every
# buffer compared with the tile-IR interpreter); where a case gives the
# tutorial's AMD configuration (its 8th field), the HIP targets compile
# that. Prints a table; exit
# status 1 when any step failed. No GPU needed:
#   sh bench/tutorials/sweep.sh TUTORIAL_DIR
# CASES=FILE picks another case list, ONLY=NAME one case.
set -u
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: sh bench/tutorials/sweep.sh TUTORIAL_DIR (the folder with 01-vector-add.py ...)" >&2
	exit 2
fi
dir=$(cd "$1" && pwd)
cd "$(dirname "$0")/../.." || exit 2
make -s -j"${JOBS:-2}" bin/tritonc >/dev/null || exit 2
cases=${CASES:-bench/tutorials/cpu_cases.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
echo "| case | cuda:sm_90 | hip:gfx90a | hip:gfx1030 | c | run c | run c:wave64 | run c:wgmma |"
echo "|---|---|---|---|---|---|---|---|"
grep -v '^#' "$cases" | while IFS='|' read -r name file kernel sig opts values grid amd; do
	[ -n "$name" ] || continue
	[ -z "${ONLY:-}" ] || [ "$ONLY" = "$name" ] || continue
	runargs=""
	for v in $values; do
		case $v in
		--*=*) runargs="$runargs ${v%%=*} ${v#*=}" ;;   # a run option: --int-range=1
		*) runargs="$runargs --arg $v" ;;
		esac
	done
	row="| $name"
	notes=""
	for t in cuda:sm_90 hip:gfx90a hip:gfx1030 c; do
		o=$opts
		case $t in hip:*) [ -z "$amd" ] || o=$amd ;; esac   # the tutorial's AMD configuration
		if eval "bin/tritonc compile \"$dir/$file\" -k $kernel -s '$sig' $o --target $t -o \"$tmp/out\"" \
			>"$tmp/log" 2>&1 </dev/null; then
			row="$row | yes"
		else
			row="$row | no"
			notes="$notes; $t: $(grep -m1 'error' "$tmp/log" | cut -c1-160)"
		fi
	done
	for t in c c:wave64 c:wgmma; do
		if eval "bin/tritonc run \"$dir/$file\" -k $kernel -s '$sig' $opts $runargs --grid $grid --target $t \
			--check --threads ${THREADS:-2}" >"$tmp/log" 2>&1 </dev/null &&
			grep -q '^check ' "$tmp/log" && ! grep '^check ' "$tmp/log" | grep -qv ': ok$'; then
			row="$row | $(grep -c '^check ' "$tmp/log") buffers match"
		else
			row="$row | FAIL"
			notes="$notes; run $t: $( (grep -m1 'error' "$tmp/log"; grep '^check ' "$tmp/log" | grep -v ': ok$') | head -2 | cut -c1-160)"
		fi
	done
	echo "$row |"
	[ -z "$notes" ] || echo "$name:$notes" >>"$tmp/notes"
done
if [ -s "$tmp/notes" ]; then
	echo
	cat "$tmp/notes"
	status=1
fi
exit $status
