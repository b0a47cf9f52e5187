#!/bin/sh
# The libraries export no symbol that libc or libm also defines. A global
# named like a libc function takes its place for every library loaded later:
# a `bind` in the specializer once received the CUDA driver's socket calls
# and crashed `tritonc run --target cuda`.
cd "$(dirname "$0")/../.." || exit 2
LIB=${LIB:-lib}
[ "$BUILD" != build ] && [ -n "$BUILD" ] && LIB=$BUILD/lib
libc=$(ldd "${BIN:-bin}/tritonc" 2>/dev/null | awk '/libc\.so|libm\.so/ {print $3}')
if [ -z "$libc" ]; then
	echo "FAIL build symbols: cannot find the C library tritonc links"
	exit 1
fi
ours=$(nm -g --defined-only "$LIB/libtritonc.a" "$LIB/libwarpcheck.a" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u)
theirs=$(for l in $libc; do nm -D --defined-only "$l"; done | awk '{print $3}' | sed 's/@.*//' | sort -u)
clash=$(printf '%s\n%s\n' "$ours" "$theirs" | sort | uniq -d)
if [ -z "$ours" ]; then
	echo "FAIL build symbols: no symbols read from $LIB"
elif [ -n "$clash" ]; then
	echo "FAIL build symbols: exported under a libc name: $(echo $clash)"
else
	echo "PASS build symbols: $(printf '%s\n' "$ours" | wc -l) exported symbols, none named like a libc function"
fi
