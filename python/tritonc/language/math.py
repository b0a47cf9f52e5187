"""tritonc.language.math: stand-ins for tl.math's functions (kernel-only)."""


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    from . import _builtin
    return _builtin("math." + name)
