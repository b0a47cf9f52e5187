"""python3 -m tritonc SCRIPT.py [args] | -m MODULE [args]: runs a program written for Triton on tritonc.

`import triton`, `import triton.language as tl` and every other triton.X
resolve to tritonc's modules of the same name."""
import importlib
import importlib.abc
import importlib.util
import runpy
import sys


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        return importlib.import_module(self.target)

    def exec_module(self, module):
        pass


class TritonFinder(importlib.abc.MetaPathFinder):
    """Finds triton and triton.X as tritonc and tritonc.X."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "triton" and not fullname.startswith("triton."):
            return None
        alias = "tritonc" + fullname[len("triton"):]
        try:
            if importlib.util.find_spec(alias) is None:
                return None
        except ModuleNotFoundError:
            return None
        return importlib.util.spec_from_loader(fullname, _AliasLoader(alias))


def install():
    """Makes `import triton` give tritonc (for this process)."""
    for name in list(sys.modules):
        if name == "triton" or name.startswith("triton."):
            del sys.modules[name]
    if not any(isinstance(f, TritonFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, TritonFinder())


USAGE = "usage: python3 -m tritonc SCRIPT.py [args] | -m MODULE [args]"


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr if not argv else sys.stdout)
        return 2 if not argv else 0
    install()
    if argv[0] == "-m":
        if len(argv) < 2:
            print(USAGE, file=sys.stderr)
            return 2
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        import os
        sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
        runpy.run_path(argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
