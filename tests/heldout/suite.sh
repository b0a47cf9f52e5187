#!/bin/sh
# The CUDA and HIP outputs of every held-out Inductor kernel (one per
# golden file in tests/heldout/golden, with the block sizes and warps real
# Triton ran) are accepted by nvcc (sm_90) and hipcc (gfx90a and gfx1030).
# The C outputs are compiled and run by test_heldout. To keep it quick, each
# target's kernels are compiled as one file, each kernel in a namespace of
# its own (the helpers are alike in each) and its extern "C" name made unique. A missing
# nvcc (not a Debian package) is reported as SKIP; a missing hipcc fails.
cd "$(dirname "$0")/../.." || exit 2
BIN=${BIN:-bin}
tmp=$(mktemp -d)
# hipcc and clang make their temporary folders under TMPDIR and leave
# some behind: here they go with the rest
mkdir "$tmp/tmpdir"
TMPDIR=$tmp/tmpdir
export TMPDIR
trap 'rm -rf "$tmp"' EXIT
NVCC=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })

# name|file|kernel|-D options|warps, from the golden files
python3 - >"$tmp/cases" <<'PY' || exit 2
import glob, json, os
for path in sorted(glob.glob("tests/heldout/golden/*.json")):
    g = json.load(open(path))
    defs = " ".join("-D %s=%d" % kv for kv in g["constexprs"].items())
    print("%s|%s|%s|%s|%d" % (os.path.basename(path)[:-5], g["file"], g["kernel"], defs, g["num_warps"]))
PY

# bundle TARGET EXT HEADER: every kernel's output for TARGET in one file
bundle() {
	target=$1 ext=$2
	out="$tmp/all-$(echo "$target" | tr ':' '_').$ext"
	echo "$3" >"$out"
	while IFS='|' read -r name file kernel defs warps; do
		if ! "$BIN/tritonc" compile "$file" -k "$kernel" $defs --num-warps "$warps" --target "$target" \
			-o "$tmp/one.$ext" 2>"$tmp/err"; then
			echo "FAIL heldout $name $target: tritonc failed: $(grep -v 'note:' "$tmp/err" | head -3)"
			continue
		fi
		# kernel names repeat across modules: each one renamed after its golden file
		{ echo "namespace k_$name {"; sed "s/\b$kernel\b/${kernel}_$name/g" "$tmp/one.$ext"; echo "}"; } >>"$out"
	done <"$tmp/cases"
	echo "$out"
}

check() { # label command... (the bundle last)
	label=$1
	shift
	if "$@" >"$tmp/log" 2>&1; then
		echo "PASS heldout: $label accepts all $(wc -l <"$tmp/cases") kernels"
	else
		echo "FAIL heldout: $label rejects some:"
		grep -m 12 'error' "$tmp/log"
	fi
}

if [ -n "$NVCC" ]; then
	f=$(bundle cuda:sm_90 cu '#include <cstdio>' | tail -1)
	check "nvcc -arch=sm_90" "$NVCC" -arch=sm_90 -c "$f" -o "$f.o"
else
	echo "SKIP heldout: nvcc not found (the CUDA toolkit is not a Debian package)"
fi
if command -v hipcc >/dev/null; then
	for arch in gfx90a gfx1030; do
		f=$(bundle hip:$arch hip '#include <hip/hip_runtime.h>' | tail -1)
		check "hipcc --offload-arch=$arch" hipcc --offload-arch=$arch -c "$f" -o "$f.o"
	done
else
	echo "FAIL heldout: hipcc is not installed (scripts/setup.sh installs it)"
fi
