#!/usr/bin/env python3
"""emit-all.py: the generated code of every test kernel, for every target, in one folder.

    scripts/emit-all.py OUTDIR [--bin bin/tritonc] [--dump STAGE] [--only SUBSTRING]

Kernels: the cases of tests/emit/suite.sh, the held-out kernels with their
golden settings (tests/heldout/golden/*.json), every corpus kernel that carries
its signature with the compiler's defaults, the cases of tests/unit/test_exec.c and the GEMM
configurations of tests/unit/test_gemm.c (as command-line hints). Targets:
cuda:sm_90, hip:gfx90a, hip:gfx1030, c, c:wave64 and c:wgmma. Each output is
OUTDIR/<case>.<target>.<ext>; a compile that fails leaves <case>.<target>.err
with its message, so two folders written before and after a change compare
with `diff -r`. With --dump STAGE the files hold that stage's text instead.
"""
import glob
import json
import os
import re
import subprocess
import sys

TARGETS = [("cuda:sm_90", "cu"), ("hip:gfx90a", "hip"), ("hip:gfx1030", "hip"), ("c", "c"),
           ("c:wave64", "c"), ("c:wgmma", "c")]


def emit_suite_cases():
    text = open("tests/emit/suite.sh").read()
    block = re.search(r"^cases='(.*?)'", text, re.S | re.M).group(1)
    for row in block.strip().split("\n"):
        name, file, opts = row.split("|", 2)
        yield "emit-" + name, file, opts.split()


def heldout_cases():
    for path in sorted(glob.glob("tests/heldout/golden/*.json")):
        g = json.load(open(path))
        opts = ["-k", g["kernel"], "--num-warps", str(g["num_warps"])]
        for k, v in g["constexprs"].items():
            opts += ["-D", "%s=%d" % (k, v)]
        yield "heldout-" + os.path.basename(path)[:-5], g["file"], opts


def corpus_cases(tritonc):
    for path in sorted(glob.glob("tests/corpus/*.py")):
        listing = subprocess.run([tritonc, "list", path], capture_output=True, text=True).stdout
        for m in re.finditer(r"^(\w+)  \(.*\n((?:    .*\n)*)", listing, re.M):
            if re.search(r"^    \w+ +\?$", m.group(2), re.M):
                continue   # no signature of its own: the cases that give one run it
            k = m.group(1)
            yield "corpus-%s-%s" % (os.path.basename(path)[:-3], k), path, ["-k", k]


def c_entries(text):
    """The Case initializers of test_exec.c, macros expanded."""
    macros = {}
    out = []
    lines = text.split("\n")
    i = 0
    body_text = []
    while i < len(lines):
        line = lines[i]
        m = re.match(r"#define (\w+)\(([^)]*)\)(.*)", line)
        if m:
            body = m.group(3)
            while body.rstrip().endswith("\\"):
                body = body.rstrip()[:-1]
                i += 1
                body += lines[i]
            macros[m.group(1)] = ([p.strip() for p in m.group(2).split(",")], body)
            i += 1
            continue
        for name, (params, body) in macros.items():
            for inv in re.finditer(r"\b%s\(([^()]*)\)" % name, line):
                args = [a.strip() for a in inv.group(1).split(",")]
                b = body
                for p, a in zip(params, args):
                    b = re.sub(r"#\s*%s\b" % p, '"%s"' % a, b)
                    b = re.sub(r"\b%s\b" % p, a, b)
                out.append(re.sub(r'"\s*"', "", b))
        body_text.append(line)
        i += 1
    # literal initializers: from one .file to the next
    flat = "\n".join(body_text)
    for m in re.finditer(r"\{\.file = .*?(?=\{\.file = |\};|\n\s*\n)", flat, re.S):
        if "#" not in m.group(0):
            out.append(m.group(0))
    return out


def exec_cases():
    seen = set()
    for entry in c_entries(open("tests/unit/test_exec.c").read()):
        if "scans_in_shared = true" in entry:
            continue   # a switch of the tests, not of the command line
        f = re.search(r'\.file = "([^"]+)"', entry)
        if not f:
            continue
        opts = []
        k = re.search(r'\.kernel = "([^"]+)"', entry)
        if k:
            opts += ["-k", k.group(1)]
        s = re.search(r'\.signature = "([^"]+)"', entry)
        if s:
            opts += ["-s", s.group(1)]
        d = re.search(r"\.defines = \{([^}]*)\}", entry)
        if d:
            for x in re.findall(r'"([^"]+)"', d.group(1)):
                opts += ["-D", x]
        for field, flag in (("num_warps", "--num-warps"), ("num_stages", "--num-stages")):
            w = re.search(r"\.%s = (\d+)" % field, entry)
            if w:
                opts += [flag, w.group(1)]
        key = (f.group(1), tuple(opts))
        if key in seen:
            continue
        seen.add(key)
        tag = "-".join(x for x in opts if not x.startswith("-") and "," not in x and "*" not in x)
        name = re.sub(r"[^A-Za-z0-9_.=-]", "_", "exec-%s-%s" % (os.path.basename(f.group(1))[:-3], tag))
        yield name, f.group(1), opts


def gemm_cases():
    configs = [(64, 64, 32, 4, 2), (128, 128, 64, 4, 3), (128, 256, 64, 8, 4), (64, 64, 32, 8, 1)]
    for dt in ("fp16", "bf16"):
        for aligned in (False, True):
            for at, bt in ((False, False), (False, True), (True, False), (True, True)):
                for bm, bn, bk, warps, stages in configs:
                    h = ":16" if aligned else ""
                    sig = "*%s,*%s,*fp16,i32%s,i32%s,i32%s,i32%s,i32%s,i32%s" % ((dt, dt) + (h,) * 6)
                    opts = ["-s", sig, "-D", "BLOCK_M=%d" % bm, "-D", "BLOCK_N=%d" % bn, "-D", "BLOCK_K=%d" % bk,
                            "-D", "stride_am=1" if at else "stride_ak=1", "-D", "stride_bk=1" if bt else "stride_bn=1",
                            "-D", "stride_cn=1", "--num-warps", str(warps), "--num-stages", str(stages)]
                    name = "gemm-%s%s%s%s-%dx%dx%d-w%d-s%d" % (dt, "-aligned" if aligned else "", "-at" if at else "",
                                                               "-bt" if bt else "", bm, bn, bk, warps, stages)
                    yield name, "tests/corpus/gemm.py", opts


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out = args[0]
    tritonc, dump, only = "bin/tritonc", None, ""
    i = 1
    while i < len(args):
        if args[i] == "--bin":
            tritonc = args[i + 1]
        elif args[i] == "--dump":
            dump = args[i + 1]
        elif args[i] == "--only":
            only = args[i + 1]
        else:
            print("unknown option %s" % args[i], file=sys.stderr)
            return 2
        i += 2
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    os.makedirs(out, exist_ok=True)
    cases = list(emit_suite_cases()) + list(heldout_cases()) + list(corpus_cases(tritonc)) + list(exec_cases()) + \
        list(gemm_cases())
    n = failed = 0
    for name, file, opts in cases:
        if only not in name:
            continue
        for target, ext in TARGETS:
            base = os.path.join(out, "%s.%s" % (name, target.replace(":", "_")))
            cmd = [tritonc, "compile", file] + opts + ["--target", target]
            cmd += ["--dump", dump] if dump else ["-o", base + "." + ext]
            r = subprocess.run(cmd, capture_output=True, text=True)
            n += 1
            if r.returncode != 0:
                failed += 1
                open(base + ".err", "w").write(" ".join(opts) + "\n" + r.stderr)
            elif dump:
                open(base + "." + dump, "w").write(r.stdout)
    print("%d outputs, %d compiles failed (.err files), in %s" % (n, failed, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
