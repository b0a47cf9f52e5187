"""pip install ./python --no-build-isolation: the tritonc package and its C extension.

The extension is built from python/_tritonc.c and the library's sources in
src/ (it needs Python's headers and a C11 compiler, nothing else)."""
import glob
import os

from setuptools import Extension, setup

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
parts = ("base", "triton", "ir", "gpu", "emit", "driver", "runtime", "api")   # what the extension calls (not export)
sources = [os.path.join(here, "_tritonc.c")]
for part in parts:
    sources += sorted(glob.glob(os.path.join(root, "src", part, "*.c")))

setup(
    name="tritonc",
    version="0.1",
    description="Triton's Python API over the tritonc compiler (CUDA C and C for the CPU)",
    packages=["tritonc", "tritonc.language", "tritonc.language.extra", "tritonc.language.extra.cuda"],
    ext_modules=[Extension(
        "tritonc._tritonc", sources=sources,
        include_dirs=[os.path.join(root, "src"), os.path.join(root, "include")],
        define_macros=[("_POSIX_C_SOURCE", "200809L")],
        extra_compile_args=["-std=c11", "-O2"],
        libraries=["m", "dl", "pthread"],
    )],
    python_requires=">=3.8",
)
