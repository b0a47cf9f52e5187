#!/usr/bin/env python3
"""Scores warpcheck (and a broad grep) on real warp-width fixes.

Usage: score.py LIST WARPCHECK GITDIR-TEMPLATE [--misses]

LIST has one fix a line: "project owner/name commit" (lines starting with #
are skipped); GITDIR-TEMPLATE names a git directory holding each
repository's history, with {owner} and {name} in it (a clone made with
`git clone --bare https://github.com/OWNER/NAME`). For each fix
commit C, every C/C++/CUDA file whose diff touches warp-related text is a
fix site. The top-level folders the sites are in are exported at C's parent
and at C (into a temporary folder; blobs a clone lacks are left out) and checked whole, with no
build flags, as a new user would run it.

  found  a warning within one line of a line the fix removed or changed (for
         a pure insertion, the lines around it), on the parent;
  left   warnings on the lines the fix wrote, on C;
  kLOC   warnings per 1000 lines of the fixed files, on C.

The broad grep is scored the same way, each matching line a "warning".
--misses lists the sites neither found, with the lines the fix changed.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

EXTS = (".cu", ".cuh", ".hip", ".h", ".hpp", ".cpp", ".cc", ".cxx", ".inl", ".c")
SITE_RE = re.compile(r"warp|wave|lane|shfl|ballot|\b32\b|\b64\b|gfx|0xffffffff", re.I)
GREP_RE = (r"warpSize|WARP_SIZE|warp_size|wavefront|__shfl|__ballot|0xffffffff|% 32|& 31|/ 32|>> 5"
           r"|32|64|__popc|__activemask|__AMDGCN|gfx[0-9]")


def git(gitdir, *args):
    return subprocess.run(["git", "--git-dir", gitdir] + list(args), check=True,
                          capture_output=True, text=True, errors="replace").stdout


def hunks(gitdir, commit, path):
    """(old lines changed, new lines written) of one file's diff."""
    out = git(gitdir, "diff", "-U0", "--no-renames", commit + "^", commit, "--", path)
    old, new, text = set(), set(), []
    for line in out.split("\n"):
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", line)
        if m:
            a, b = int(m.group(1)), int(m.group(2) or 1)
            c, d = int(m.group(3)), int(m.group(4) or 1)
            if b == 0:
                old.update((a, a + 1))
            else:
                old.update(range(a, a + b))
            new.update(range(c, c + d))
        elif line[:1] in "+-" and not line.startswith(("+++", "---")):
            text.append(line[1:])
    return old, new, "\n".join(text)


def export(gitdir, commit, folders, dest):
    """The folders' files at commit, written under dest. A blob the clone
    lacks (snapshots may leave out their largest files) is skipped."""
    os.makedirs(dest, exist_ok=True)
    listing = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "-z", commit, "--"] + folders,
                             check=True, capture_output=True).stdout
    entries = []
    for rec in listing.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob":
            entries.append((mode, sha, path.decode("utf-8", "replace")))
    cat = subprocess.run(["git", "--git-dir", gitdir, "cat-file", "--batch"],
                         input=b"".join(sha + b"\n" for _, sha, _ in entries),
                         check=True, capture_output=True).stdout
    at = 0
    for mode, sha, path in entries:
        nl = cat.index(b"\n", at)
        head = cat[at:nl].split()
        at = nl + 1
        if len(head) < 3 or head[1] != b"blob":
            continue  # missing
        size = int(head[2])
        data = cat[at:at + size]
        at += size + 1
        out = os.path.join(dest, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if mode == b"120000":
            try:
                os.symlink(data.decode("utf-8", "replace"), out)
            except OSError:
                pass
        else:
            with open(out, "wb") as fh:
                fh.write(data)


def warpcheck(tool, root, folders):
    """{path: [lines of warnings]} and {path: [ids]}."""
    r = subprocess.run([tool, "--format", "json", "-j", "1"] + folders, cwd=root,
                       capture_output=True, text=True, errors="replace")
    try:
        data = json.loads(r.stdout)
    except ValueError:
        sys.exit("warpcheck gave no JSON in %s: %s" % (root, r.stderr[:300]))
    lines, ids = {}, {}
    for f in data["findings"]:
        if f["severity"] != "warning":
            continue
        p = os.path.normpath(f["file"])
        lines.setdefault(p, []).append(f["line"])
        ids.setdefault(p, {})[f["line"]] = ids.get(p, {}).get(f["line"], []) + [f["id"]]
    return lines, ids


def grep(root, folders):
    r = subprocess.run(["grep", "-rnwE", GREP_RE] + folders, cwd=root,
                       capture_output=True, text=True, errors="replace")
    lines = {}
    for line in r.stdout.split("\n"):
        m = re.match(r"(.*?):(\d+):", line)
        if m:
            lines.setdefault(os.path.normpath(m.group(1)), []).append(int(m.group(2)))
    return lines


def near(ws, want):
    return any(abs(w - o) <= 1 for w in ws for o in want)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show_misses = "--misses" in sys.argv
    listing, tool, template = args[0], os.path.abspath(args[1]), args[2]
    tot = {"commits": 0, "sites": 0, "cf": 0, "sf": 0, "cg": 0, "sg": 0,
           "left": 0, "leftg": 0, "w": 0, "wg": 0, "lines": 0}
    rows, misses, rule_hits = [], [], {}
    after_rules, after_where = {}, []
    for entry in open(listing):
        if not entry.strip() or entry.startswith("#"):
            continue
        project, repo, commit = entry.split()[:3]
        owner, name = repo.split("/")
        gitdir = template.format(owner=owner, name=name)
        files = [p for p in git(gitdir, "diff", "--name-only", "--no-renames", "--diff-filter=M",
                                commit + "^", commit).split("\n") if p.endswith(EXTS)]
        sites = []
        for p in files:
            old, new, text = hunks(gitdir, commit, p)
            if SITE_RE.search(text):
                sites.append((p, old, new))
        if not sites:
            continue
        folders = sorted({p.split("/")[0] if "/" in p else p for p, _, _ in sites})
        with tempfile.TemporaryDirectory() as tmp:
            before, after = os.path.join(tmp, "b"), os.path.join(tmp, "a")
            export(gitdir, commit + "^", folders, before)
            export(gitdir, commit, folders, after)
            wb, idb = warpcheck(tool, before, folders)
            wa, ida = warpcheck(tool, after, folders)
            gb, ga = grep(before, folders), grep(after, folders)
            nf = ng = 0
            got_ids = set()
            for p, old, new in sites:
                f = near(wb.get(p, []), old)
                g = near(gb.get(p, []), old)
                nf += f
                ng += g
                if f:
                    for line, ids in idb.get(p, {}).items():
                        if any(abs(line - o) <= 1 for o in old):
                            got_ids.update(ids)
                elif show_misses:
                    src = open(os.path.join(before, p), errors="replace").read().split("\n")
                    misses.append((project, commit, p, g,
                                   [(o, src[o - 1].strip()) for o in sorted(old) if 0 < o <= len(src)]))
                tot["left"] += sum(1 for w in wa.get(p, []) if w in new)
                tot["leftg"] += sum(1 for w in ga.get(p, []) if w in new)
                tot["w"] += len(wa.get(p, []))
                for line, ids in ida.get(p, {}).items():
                    for i in ids:
                        after_rules[i] = after_rules.get(i, 0) + 1
                        after_where.append("%s %s:%d %s" % (project, p, line, i))
                tot["wg"] += len(ga.get(p, []))
                tot["lines"] += sum(1 for _ in open(os.path.join(after, p), "rb"))
            for i in got_ids:
                rule_hits[i] = rule_hits.get(i, 0) + 1
        tot["commits"] += 1
        tot["sites"] += len(sites)
        tot["sf"] += nf
        tot["sg"] += ng
        tot["cf"] += nf > 0
        tot["cg"] += ng > 0
        rows.append((project, commit[:8], len(sites), "found " + ", ".join(sorted(got_ids)) if nf else "-",
                     "found" if ng else "-"))
    print("| project | fix commit | sites | warpcheck (rules at the fix) | grep |")
    print("|---|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %d | %s | %s |" % r)
    k = tot["lines"] / 1000.0
    print()
    print("| | warpcheck | broad grep |")
    print("|---|---|---|")
    print("| fixes found (of %d commits) | %d (%.2f) | %d (%.2f) |" % (
        tot["commits"], tot["cf"], tot["cf"] / tot["commits"], tot["cg"], tot["cg"] / tot["commits"]))
    print("| fix sites found (of %d files) | %d (%.2f) | %d (%.2f) |" % (
        tot["sites"], tot["sf"], tot["sf"] / tot["sites"], tot["sg"], tot["sg"] / tot["sites"]))
    print("| warnings left on the lines the fixes wrote | %d | %d |" % (tot["left"], tot["leftg"]))
    print("| warnings per kLOC on the fixed files (%.0f kLOC) | %.2f | %.1f |" % (
        k, tot["w"] / k, tot["wg"] / k))
    print()
    print("warnings on the fixed files by rule: " +
          ", ".join("%s %d" % kv for kv in sorted(after_rules.items(), key=lambda kv: -kv[1])))
    if "--where" in sys.argv:
        for w in sorted(set(after_where)):
            print("AFTER " + w)
    if show_misses:
        print()
        for project, commit, p, g, old in misses:
            print("MISS %s %s %s (grep %s)" % (project, commit[:8], p, "found" if g else "-"))
            for o, text in old[:12]:
                print("    %d: %s" % (o, text[:110]))


if __name__ == "__main__":
    main()
