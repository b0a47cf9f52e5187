#!/bin/sh
# Runs one fuzz target for SECONDS (default 900) at the lowest priority,
# with inputs up to 1 MB, its dictionary and a corpus seeded from the
# test kernels and the generated deep and long inputs (gen_seeds.sh):
#   tests/fuzz/run.sh fuzz_lower 900 /tmp/fuzzwork
# Crashes are kept (fork mode goes on after one) as WORK/TARGET/crash-*;
# the log, ending with libFuzzer's statistics, is WORK/TARGET.log.
set -e
cd "$(dirname "$0")/../.."
t=$1
secs=${2:-900}
work=${3:-$(mktemp -d)}
mkdir -p "$work/$t/corpus" "$work/$t/seeds"
case $t in
fuzz_warpcheck|fuzz_warpfix)
	dict=tests/fuzz/cuda.dict
	find tests/warpcheck -type f \( -name '*.cu' -o -name '*.h' -o -name '*.cuh' -o -name '*.hip' \) \
		-exec cp {} "$work/$t/seeds/" \; ;;
*)
	dict=tests/fuzz/triton.dict
	cp tests/corpus/*.py tests/exec/*.py examples/*.py "$work/$t/seeds/" ;;
esac
tests/fuzz/gen_seeds.sh "$t" "$work/$t/seeds"
tmo=20
[ "$t" = fuzz_run ] && tmo=120   # cc per input, at the lowest priority
cp "build/fuzz/$t" "$work/$t/bin"
cd "$work/$t"
nice -n 19 ./bin -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -max_len=1048576 -timeout="$tmo" \
	-rss_limit_mb=3072 -dict="$OLDPWD/$dict" -max_total_time="$secs" -print_final_stats=1 \
	corpus seeds >"$work/$t.log" 2>&1 || true
tail -5 "$work/$t.log"
