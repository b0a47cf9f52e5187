"""tritonc.language.extra.cuda: libdevice under its CUDA name (kernel-only)."""
from .. import libdevice  # noqa: F401
