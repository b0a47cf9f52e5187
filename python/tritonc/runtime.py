"""tritonc.runtime: the parts of triton.runtime that host code uses (driver.active, errors, jit names)."""
import sys

from .jit import JITFunction, KernelInterface  # noqa: F401
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics  # noqa: F401


class OutOfResources(Exception):
    def __init__(self, required, limit, name):
        super().__init__(f"out of resource: {name}, Required: {required}, Hardware limit: {limit}")
        self.required, self.limit, self.name = required, limit, name


class GPUTarget:
    def __init__(self, backend, arch, warp_size):
        self.backend, self.arch, self.warp_size = backend, arch, warp_size

    def __repr__(self):
        return f"GPUTarget(backend={self.backend!r}, arch={self.arch!r}, warp_size={self.warp_size})"


def _torch():
    import torch
    return torch


class _Utils:
    def get_device_properties(self, device=None):
        torch = _torch()
        if not torch.cuda.is_available():
            import os
            return {"multiprocessor_count": os.cpu_count() or 1, "max_shared_mem": 1 << 20, "max_num_regs": 65536,
                    "warpSize": 32, "sm_clock_rate": 0, "mem_clock_rate": 0, "mem_bus_width": 0}
        p = torch.cuda.get_device_properties(device if device is not None else torch.cuda.current_device())
        return {"multiprocessor_count": p.multi_processor_count,
                "max_shared_mem": getattr(p, "shared_memory_per_block_optin", 232448),
                "max_num_regs": getattr(p, "regs_per_multiprocessor", 65536), "warpSize": getattr(p, "warp_size", 32),
                "sm_clock_rate": getattr(p, "clock_rate", 0), "mem_clock_rate": getattr(p, "memory_clock_rate", 0),
                "mem_bus_width": getattr(p, "memory_bus_width", 0)}


class _ActiveDriver:
    utils = _Utils()

    def _cuda(self):
        torch = sys.modules.get("torch")
        return torch is not None and torch.cuda.is_available()

    def get_active_torch_device(self):
        torch = _torch()
        return torch.device("cuda", torch.cuda.current_device()) if self._cuda() else torch.device("cpu")

    def get_current_device(self):
        return _torch().cuda.current_device() if self._cuda() else 0

    def set_current_device(self, device):
        _torch().cuda.set_device(device)

    def get_current_stream(self, device=None):
        torch = _torch()
        return torch.cuda.current_stream(device).cuda_stream if self._cuda() else 0

    def get_device_interface(self):
        return _torch().cuda

    def get_current_target(self):
        if self._cuda():
            major, minor = _torch().cuda.get_device_capability()
            return GPUTarget("cuda", major * 10 + minor, 32)
        return GPUTarget("cpu", "c", 32)

    def get_benchmarker(self):
        from .testing import do_bench
        return do_bench

    def get_empty_cache_for_benchmark(self):
        torch = _torch()
        return torch.empty(int(256e6 // 4), dtype=torch.int, device="cuda" if self._cuda() else "cpu")

    def clear_cache(self, cache):
        cache.zero_()


class _DriverHolder:
    active = _ActiveDriver()

    def set_active(self, driver):
        self.active = driver

    def reset_active(self):
        self.active = _ActiveDriver()


driver = _DriverHolder()
