#!/bin/sh
# Runs one fuzz target for SECONDS (default 900) at the lowest priority:
#   tests/fuzz/run.sh fuzz_lower 900 /tmp/fuzzwork
# 1. Regression pass: the generated deep and long inputs (gen_seeds.sh, up
#    to 1 MB) run once each, every one within DEEP_TIMEOUT seconds (default
#    60) of wall time, and its processor time is logged; they are not
#    mutated (each takes seconds under ASan).
# 2. The test kernels (or the warpcheck cases) are merged into the corpus
#    WORK/TARGET/corpus (-merge=1: only inputs that add coverage are kept).
# 3. Fuzzing in process, with inputs up to 1 MB (-max_len=1048576), the
#    dictionary triton.dict or cuda.dict, a per-input -timeout (TIMEOUT,
#    default 30 s, 120 s for fuzz_run) and -rss_limit_mb=2048. A crash, leak,
#    UB report or timeout ends the process; it is kept as
#    WORK/TARGET/{crash,leak,timeout,oom}-* and fuzzing starts again on the
#    grown corpus until SECONDS have passed.
# The logs are WORK/TARGET.deep.log and WORK/TARGET.log; the last line
# printed (also WORK/TARGET.summary) gives executions, exec/s, cov, ft,
# the corpus size and the findings.
set -e
cd "$(dirname "$0")/../.."
root=$PWD
t=$1
secs=${2:-900}
work=${3:-$(mktemp -d)}
mkdir -p "$work/$t/corpus" "$work/$t/seeds" "$work/$t/deep" "$work/$t/artifacts"
work=$(cd "$work" && pwd)
case $t in
fuzz_warpcheck|fuzz_warpfix)
	dict=$root/tests/fuzz/cuda.dict
	find tests/warpcheck -type f \( -name '*.cu' -o -name '*.h' -o -name '*.cuh' -o -name '*.hip' \) \
		-exec cp {} "$work/$t/seeds/" \; ;;
*)
	dict=$root/tests/fuzz/triton.dict
	cp tests/corpus/*.py tests/exec/*.py examples/*.py "$work/$t/seeds/" ;;
esac
tests/fuzz/gen_seeds.sh "$t" "$work/$t/deep"
tmo=${TIMEOUT:-30}   # wall time at nice 19 on a loaded machine: ten times the processor time
[ "$t" = fuzz_run ] && tmo=${TIMEOUT:-120}   # and cc per input
cp "build/fuzz/$t" "$work/$t/bin"
cd "$work/$t"
export FUZZ_RUN_CACHE="$work/$t/cc-cache" TRITONC_CFLAGS="${TRITONC_CFLAGS:--O0}"
common="-rss_limit_mb=2048 -max_len=1048576 -artifact_prefix=$work/$t/artifacts/"
# 1. the deep and long inputs, once each, each in a process of its own (libFuzzer runs a file
#    given by name once), with its processor time (user + system, cc included); DEEP=0 skips them
if [ "${DEEP:-1}" != 0 ]; then
	: >"$work/$t.deep.log"
	for f in deep/*; do
		# shellcheck disable=SC2086
		( nice -n 19 ./bin $common -timeout="${DEEP_TIMEOUT:-60}" "$f" >>"$work/$t.deep.log" 2>&1; echo "status $? $f"; times ) |
			awk '/^status / { rc = $2; f = $3 } END {
				n = split($0, w, " "); t = 0
				for (i = 1; i <= n; i++) { split(w[i], ms, "m"); t += ms[1] * 60 + ms[2] }
				printf "deep: %s status %d, %.1f s of processor time\n", f, rc, t }' | tee -a "$work/$t.deep.log"
	done
	grep -q '^deep: .* status [1-9]' "$work/$t.deep.log" && echo "$t: a deep or long input failed: see $work/$t.deep.log"
fi
# 2. the seeds, minimized into the corpus
# shellcheck disable=SC2086
nice -n 19 ./bin $common -timeout="${DEEP_TIMEOUT:-60}" -merge=1 corpus seeds >"$work/$t.merge.log" 2>&1 ||
	echo "$t: the merge failed: see $work/$t.merge.log"
# 3. fuzzing, started again after each finding
start=$(date +%s)
: >"$work/$t.log"   # (so a second call on the same WORK goes on with the grown corpus)
while left=$((secs - ($(date +%s) - start))); [ "$left" -gt 0 ]; do
	t0=$(date +%s)
	# shellcheck disable=SC2086
	nice -n 19 ./bin $common -timeout="$tmo" -dict="$dict" -max_total_time="$left" -print_final_stats=1 \
		corpus >>"$work/$t.log" 2>&1 || true
	# an input of the corpus that fails again at the start (a finding is
	# named by its SHA-1, as the corpus files are) leaves the corpus
	for f in artifacts/*; do [ -f "$f" ] && rm -f "corpus/${f##*-}"; done
	if [ $(($(date +%s) - t0)) -lt 10 ]; then
		short=$((${short:-0} + 1))
		[ "$short" -lt 5 ] || { echo "$t: five runs in a row ended within 10 s: stopped"; break; }
	else
		short=0
	fi
done
wall=$(($(date +%s) - start))
execs=$(sed -n 's/^stat::number_of_executed_units: //p' "$work/$t.log" | awk '{s += $1} END {print s + 0}')
last=$(grep -E '^#[0-9]+.*cov: ' "$work/$t.log" | tail -n 1)
cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
n=$(find corpus -type f | wc -l)
found=$(find artifacts -type f | sed 's|.*/||; s|-.*||' | sort | uniq -c | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}')
deep=$(awk '/^deep: / { n++; if ($4 + 0 != 0) bad++; if ($5 + 0 >= m) { m = $5 + 0; f = $2 } }
	END { printf "%d inputs, %d failed, slowest %s %.1f s", n, bad, f, m }' "$work/$t.deep.log" 2>/dev/null)
echo "$t: ${wall}s, $execs executions, $((execs / (wall > 0 ? wall : 1))) exec/s, cov $cov ft $ft, corpus $n;" \
	"found: ${found:-nothing}; deep: $deep" | tee "$work/$t.summary"
