"""Variant of a tritonc CUDA file of a cp.async pipeline (timing experiment):
each operand's copies of a stage in a commit group of their own (Triton's
schedule: a group per load), the waits counting two groups a stage.
usage: two_groups.py IN.cu OUT.cu"""
import re
import sys

src = open(sys.argv[1]).read().split("\n")
out = []
i = 0
while i < len(src):
    line = src[i]
    out.append(line)
    if "tc_copy_async16((tc_shared_s + 0u)" in line:
        # the two closing braces of the copy loops, then the operand's own commit
        out.append(src[i + 1])
        out.append(src[i + 2])
        out.append("tc_copy_commit(); tc_acommit = 1;")
        i += 3
        continue
    i += 1
text = "\n".join(out)
commits = re.findall(r"\n(\t+)tc_copy_commit\(\);\n", text)
assert text.count("tc_copy_wait(1);") == 1 and len(commits) == 1
text = text.replace("tc_copy_wait(1);", "tc_copy_wait(2);")
ind = commits[0]
text = text.replace("\n%stc_copy_commit();\n" % ind,
                    "\n%sif (!tc_acommit) tc_copy_commit();\n%stc_copy_commit(); tc_acommit = 0;\n" % (ind, ind))
# a local of the kernel: after the opening brace of the __global__ function
k = text.index("__global__")
brace = text.index("\n{\n", k)
text = text[:brace + 3] + "\tint tc_acommit = 0;\n" + text[brace + 3:]
open(sys.argv[2], "w").write(text)
