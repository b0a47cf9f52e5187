"""tritonc.autotune and tritonc.heuristics, as Triton defines them.

The autotuner times each configuration on the device where the arguments
live (CUDA events for CUDA memory, the wall clock for the CPU) and keeps
the fastest one for each value of its key.
"""
import builtins
import hashlib
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor

from .jit import KernelInterface, _compile_stats, _cpu_target, _cuda_target, _kernel_source, _thread_setup
from . import _tritonc


class Config:
    """A set of meta-parameters and launch options for the autotuner."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None, ir_override=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def all_kwargs(self):
        out = dict(self.kwargs)
        out["num_warps"] = self.num_warps
        out["num_stages"] = self.num_stages
        return out

    def __str__(self):
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()]
        parts += [f"num_warps: {self.num_warps}", f"num_ctas: {self.num_ctas}", f"num_stages: {self.num_stages}",
                  f"maxnreg: {self.maxnreg}"]
        return ", ".join(parts)

    __repr__ = __str__

    def __hash__(self):
        return hash((tuple(sorted(self.kwargs.items())), self.num_warps, self.num_stages, self.num_ctas,
                     self.maxnreg))

    def __eq__(self, other):
        return isinstance(other, Config) and hash(self) == hash(other)


def _arg_names(fn):
    return fn.arg_names


def _copy(v):
    return v.clone() if hasattr(v, "clone") else v.copy()


def _restore(dst, src):
    if hasattr(dst, "copy_"):
        dst.copy_(src)
    else:
        dst[...] = src


def compile_threads(n):
    """How many threads compile n configurations at once: TRITONC_COMPILE_THREADS, else one a processor (at most n)."""
    text = os.environ.get("TRITONC_COMPILE_THREADS", "")
    if text:
        if not text.isdigit() or int(text) < 1:
            raise ValueError(f"TRITONC_COMPILE_THREADS must be a positive integer (got {text!r})")
        limit = int(text)
    else:
        limit = os.cpu_count() or 1
    return max(1, min(n, limit))


def _cache_folder():
    """The disk cache's folder, as the library picks it: $TRITONC_CACHE, $XDG_CACHE_HOME/tritonc, ~/.cache/tritonc."""
    for var, tail in (("TRITONC_CACHE", ""), ("XDG_CACHE_HOME", "tritonc")):
        if os.environ.get(var):
            return os.path.join(os.environ[var], tail) if tail else os.environ[var]
    home = os.environ.get("HOME")
    return os.path.join(home, ".cache", "tritonc") if home else None


def _device_of(values):
    for v in values:
        if getattr(v, "is_cuda", False) or hasattr(v, "__cuda_array_interface__"):
            return "cuda"
    return "cpu"


class Autotuner(KernelInterface):
    def __init__(self, fn, arg_names, configs, key, reset_to_zero=None, restore_value=None, pre_hook=None,
                 post_hook=None, prune_configs_by=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None,
                 cache_results=False):
        self.fn = fn
        self.base_fn = fn
        while hasattr(self.base_fn, "fn") and not hasattr(self.base_fn, "_dispatch"):
            self.base_fn = self.base_fn.fn
        self.arg_names = arg_names
        self.configs = list(configs) if configs else [Config({})]
        self.keys = list(key)
        self.cache = {}
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        # a key that names no parameter is skipped when the key is made, as Triton does
        for name in self.reset_to_zero + self.restore_value:
            if name not in arg_names:
                raise ValueError(f"autotune: '{name}' is not a parameter of '{fn.__name__}'")
        self.user_pre_hook = pre_hook
        self.post_hook = post_hook
        prune_configs_by = prune_configs_by or {}
        self.perf_model = prune_configs_by.get("perf_model")
        self.configs_top_k = prune_configs_by.get("top_k", 1.0)
        self.early_config_prune = prune_configs_by.get("early_config_prune")
        self.num_warmups = warmup
        self.num_reps = rep
        self.user_do_bench = do_bench
        self.best_config = None
        self.configs_timings = None
        self.bench_time = 0.0
        self.cache_results = cache_results
        self.__name__ = fn.__name__
        self.__doc__ = getattr(fn, "__doc__", None)

    def prune_configs(self, kwargs, nargs):
        configs = self.configs
        if self.early_config_prune:
            configs = list(self.early_config_prune(configs, nargs, **kwargs))
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(configs) * top_k)
            top_k = max(int(top_k), 1)
            if len(configs) > top_k:
                est = {c: self.perf_model(**nargs, **kwargs, **c.all_kwargs()) for c in configs}
                configs = sorted(est, key=est.get)[:top_k]
        return configs

    def _choice_path(self, key, configs, device):
        """Where the choice for this key is kept on disk (TRITON_CACHE_AUTOTUNING=1 or cache_results=True): a
        file named by a hash of the kernel's text, the key, the configurations and the target; None when off."""
        if not (self.cache_results or os.environ.get("TRITON_CACHE_AUTOTUNING", "0") == "1"):
            return None
        folder = _cache_folder()
        fn = getattr(self.base_fn, "fn", None)
        if folder is None or fn is None:
            return None
        try:
            source = _kernel_source(fn)[0]
        except (OSError, RuntimeError, SyntaxError):
            return None
        target = _cuda_target() if device == "cuda" else _cpu_target()[0]
        text = repr((source, fn.__name__, key, [str(c) for c in configs], target, _tritonc.__name__))
        return os.path.join(folder, "autotune", hashlib.sha256(text.encode()).hexdigest()[:32] + ".json")

    def _load_choice(self, path, configs):
        try:
            with open(path) as f:
                saved = json.load(f)
            return configs[saved["best"]] if str(configs[saved["best"]]) == saved["config"] else None
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            return None

    def _store_choice(self, path, configs, best, timings):
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tmp = f"{path}.{os.getpid()}.tmp"
            with open(tmp, "w") as f:
                json.dump({"best": configs.index(best), "config": str(best),
                           "timings": {str(c): t[0] for c, t in timings.items()}}, f)
            os.replace(tmp, path)   # whole or not at all, for processes reading it meanwhile
        except (OSError, TypeError, ValueError):
            pass

    def _reset(self, nargs):
        for name in self.reset_to_zero:
            v = nargs[name]
            if hasattr(v, "zero_"):
                v.zero_()
            elif hasattr(v, "fill"):
                v.fill(0)

    def _compile_all(self, args, kwargs, configs, grid):
        """Compiles every configuration before any is timed, several at once
        (the compiler and NVRTC run without the GIL). Returns the ones that
        did not compile, with their error; any other error is left for the
        timing run to raise."""
        failed = {}

        def one(config):
            try:
                self.fn.warmup(*args, grid=grid, **kwargs, **config.all_kwargs())
            except _tritonc.CompilationError as e:
                failed[config] = e
            except Exception:   # raised again, where it belongs, by the config's timing run
                pass
        n = compile_threads(len(configs))
        if n == 1:
            for config in configs:
                one(config)
        else:
            with ThreadPoolExecutor(max_workers=n, initializer=_thread_setup()) as pool:
                list(pool.map(one, configs))
        return failed

    def _bench(self, args, nargs, kwargs, config, grid, device):
        from .testing import do_bench
        current = {**kwargs, **config.all_kwargs()}
        full = {**nargs, **current}
        saved = {name: _copy(nargs[name]) for name in self.restore_value}

        def call():
            self._reset(nargs)
            if config.pre_hook:
                config.pre_hook(full)
            if self.user_pre_hook:
                self.user_pre_hook(full)
            self.fn.run(*args, grid=grid, warmup=False, **current)
            for name, value in saved.items():   # each run starts from the same values
                _restore(nargs[name], value)
            if self.post_hook:
                self.post_hook(full, None)
        try:
            bench = self.user_do_bench or (lambda f: do_bench(f, warmup=self.num_warmups or 25,
                                                              rep=self.num_reps or 100, quantiles=(0.5, 0.2, 0.8),
                                                              device=device))
            t = bench(call)
        except _tritonc.CompilationError:
            t = [float("inf")] * 3
        except RuntimeError as e:
            if "out of resource" not in str(e).lower() and "shared memory" not in str(e).lower():
                raise
            t = [float("inf")] * 3
        return t if isinstance(t, (list, tuple)) else [t, t, t]

    def run(self, *args, grid, warmup=False, **kwargs):
        nargs = dict(zip(self.arg_names, args))
        all_args = {**nargs, **kwargs}
        key = [all_args[k] for k in self.keys if k in all_args]
        for v in all_args.values():
            if hasattr(v, "dtype") and not isinstance(v, (int, float)):
                key.append(str(v.dtype))
        key = tuple(key)
        if key not in self.cache:
            configs = self.prune_configs(kwargs, nargs)
            device = _device_of(all_args.values())
            path = self._choice_path(key, configs, device) if len(configs) > 1 else None
            saved = self._load_choice(path, configs) if path else None
            if len(configs) == 1 or saved is not None:
                self.cache[key] = saved or configs[0]
            else:
                start = time.perf_counter()
                failed = self._compile_all(args, kwargs, configs, grid)
                compiled = time.perf_counter()
                timings = {c: [float("inf")] * 3 if c in failed else self._bench(args, nargs, kwargs, c, grid, device)
                           for c in configs}
                self.bench_time = time.perf_counter() - start
                stats = _compile_stats()
                if stats:
                    stats.tuning(self.__name__, key, len(configs), compiled - start, time.perf_counter() - compiled)
                self.cache[key] = builtins.min(timings, key=lambda c: timings[c][0])
                self.configs_timings = timings
                self._reset(nargs)
                if path:
                    self._store_choice(path, configs, self.cache[key], timings)
        config = self.cache[key]
        self.best_config = config
        options = config.all_kwargs()
        if config.pre_hook:
            config.pre_hook({**nargs, **kwargs, **options})
        return self.fn.run(*args, grid=grid, warmup=warmup, **kwargs, **options)

    def warmup(self, *args, grid, **kwargs):
        """Compiles every configuration (several at once), timing none."""
        configs = self.prune_configs(kwargs, dict(zip(self.arg_names, args)))

        def one(config):
            return self.fn.warmup(*args, grid=grid, **kwargs, **config.all_kwargs())
        n = compile_threads(len(configs))
        if n == 1:
            return [one(c) for c in configs]
        with ThreadPoolExecutor(max_workers=n, initializer=_thread_setup()) as pool:
            return list(pool.map(one, configs))


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None,
             post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None, cache_results=False):
    """@autotune(configs=[Config(...), ...], key=['n']): picks the fastest config for each key value."""
    def decorator(fn):
        return Autotuner(fn, _arg_names(fn), configs, key, reset_to_zero, restore_value, pre_hook=pre_hook,
                         post_hook=post_hook, prune_configs_by=prune_configs_by, warmup=warmup, rep=rep,
                         use_cuda_graph=use_cuda_graph, do_bench=do_bench, cache_results=cache_results)
    return decorator


class Heuristics(KernelInterface):
    def __init__(self, fn, arg_names, values):
        self.fn = fn
        self.values = values
        self.arg_names = arg_names
        self.__name__ = fn.__name__

    def run(self, *args, **kwargs):
        for name, heur in self.values.items():
            kwargs[name] = heur({**dict(zip(self.arg_names, args)), **kwargs})
        return self.fn.run(*args, **kwargs)

    def warmup(self, *args, **kwargs):
        for name, heur in self.values.items():
            kwargs[name] = heur({**dict(zip(self.arg_names, args)), **kwargs})
        return self.fn.warmup(*args, **kwargs)


def heuristics(values):
    """@heuristics({'NAME': lambda args: ...}): meta-parameters computed from the arguments."""
    def decorator(fn):
        return Heuristics(fn, _arg_names(fn), values)
    return decorator
