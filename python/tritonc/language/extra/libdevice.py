"""tritonc.language.extra.libdevice: stand-ins for libdevice's functions (kernel-only)."""


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    from .. import _builtin
    return _builtin("libdevice." + name)
