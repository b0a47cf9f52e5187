"""tritonc.language.extra: libdevice's names (kernel-only)."""
from . import cuda, libdevice  # noqa: F401
