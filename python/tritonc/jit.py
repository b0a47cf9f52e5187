"""tritonc.jit: @jit and the kernels it makes.

The launch path (binding arguments, the specialization key, the kernel
cache, packing and launching) is _tritonc.Dispatcher's, in C. This module
gives it the kernel's parameters and, on a cache miss (``_miss``), compiles
the specialization: the kernel's source text through libtritonc's compiler,
then tritonc_load for the device the arguments live on.
"""
import ast
import hashlib
import inspect
import linecache
import os
import sys
import time
import types

from . import _tritonc
from . import language as _tl

_NO_DEFAULT = object()

# Triton's dtype names for the element types tritonc knows, by every spelling seen.
_DTYPE_NAMES = {
    "float32": "fp32", "float": "fp32", "float16": "fp16", "half": "fp16", "bfloat16": "bf16", "float64": "fp64",
    "double": "fp64", "int8": "i8", "int16": "i16", "int32": "i32", "int": "i32", "int64": "i64", "long": "i64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64", "bool": "i1",
    "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5", "float8_e4m3fnuz": "fp8e4b8", "float8_e5m2fnuz": "fp8e5b16",
    "f4": "fp32", "f2": "fp16", "f8": "fp64", "i1": "i8", "i2": "i16", "i4": "i32", "i8": "i64", "u1": "u8",
    "u2": "u16", "u4": "u32", "u8": "u64", "b1": "i1",
}


def _dtype_name(dtype):
    """"fp32" etc. for a torch, numpy, Triton or typestr dtype."""
    if isinstance(dtype, _tl.dtype):
        return dtype.name
    text = str(dtype)
    for prefix in ("torch.", "numpy.", "triton.language."):
        if text.startswith(prefix):
            text = text[len(prefix):]
    text = text.lstrip("<>=|")
    if text in _DTYPE_NAMES:
        return _DTYPE_NAMES[text]
    if text in _tl._LONG:
        return text
    name = getattr(dtype, "name", None)
    if isinstance(name, str) and name in _DTYPE_NAMES:
        return _DTYPE_NAMES[name]
    raise TypeError(f"unsupported dtype {dtype!r}")


def _stream_getter():
    """The function giving the current CUDA stream: torch's, else cupy's, else none (the default stream)."""
    torch = sys.modules.get("torch")
    if torch is not None and hasattr(torch, "_C") and hasattr(torch._C, "_cuda_getCurrentRawStream"):
        return (torch._C._cuda_getDevice, torch._C._cuda_getCurrentRawStream)
    cupy = sys.modules.get("cupy")
    if cupy is not None:
        return lambda: cupy.cuda.get_current_stream().ptr
    return None


class _CompileStats:
    """TRITONC_COMPILE_STATS=1: what compiling cost this process, printed to stderr when it exits: each
    kernel's compiles, the compiler's and the loader's (NVRTC's, or the C compiler's) seconds, the disk
    cache's hits, and each autotuning (configurations, seconds compiling them, seconds timing them)."""

    def __init__(self):
        import threading
        self.lock = threading.Lock()
        self.kernels = {}    # name -> [compiles, compiler s, loader s, from the disk cache]
        self.tunings = []    # (name, key, configurations, compile s, timing s)

    def kernel(self, name, front, load, from_disk):
        with self.lock:
            k = self.kernels.setdefault(name, [0, 0.0, 0.0, 0])
            k[0] += 1
            k[1] += front
            k[2] += load
            k[3] += bool(from_disk)

    def tuning(self, name, key, n, compile_s, timing_s):
        with self.lock:
            self.tunings.append((name, key, n, compile_s, timing_s))

    def text(self):
        lines = ["tritonc compile stats:"]
        for name, (n, front, load, disk) in self.kernels.items():
            lines.append(f"  {name}: {n} compiled ({disk} from the disk cache): tritonc {front:.2f} s, "
                         f"loading (NVRTC or cc) {load:.2f} s, summed over threads")
        for name, key, n, compile_s, timing_s in self.tunings:
            lines.append(f"  autotune {name} key {key!r}: {n} configurations, compiling {compile_s:.2f} s, "
                         f"timing {timing_s:.2f} s")
        return "\n".join(lines)


def _compile_stats():
    return _stats


def _start_stats():
    """Made at import when TRITONC_COMPILE_STATS is set: printed at exit, and on SIGTERM (a run stopped by
    timeout(1) is the one worth reading) where nothing else handles that signal."""
    import atexit
    import signal
    stats = _CompileStats()
    atexit.register(lambda: print(stats.text(), file=sys.stderr, flush=True))
    try:
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))   # exit runs atexit
    except ValueError:   # imported outside the main thread
        pass
    return stats


_stats = _start_stats() if os.environ.get("TRITONC_COMPILE_STATS", "0") not in ("", "0") else None


def _thread_setup():
    """What a compiling thread runs first: the caller's current CUDA device
    made current there too (torch's or cupy's), so that tritonc_load puts
    the kernel in the caller's context; None where there is nothing to do."""
    torch = sys.modules.get("torch")
    if torch is not None and hasattr(torch, "cuda") and torch.cuda.is_available() and torch.cuda.is_initialized():
        device = torch.cuda.current_device()
        return lambda: torch.cuda.set_device(device)
    cupy = sys.modules.get("cupy")
    if cupy is not None:
        device = cupy.cuda.runtime.getDevice()
        return lambda: cupy.cuda.runtime.setDevice(device)
    return None


_tritonc.configure({}, _dtype_name, None, _tl.constexpr, _NO_DEFAULT)
# the stream getter is picked at the first launch on CUDA memory (torch is imported by then), before the key
# of that launch is made: it names the current device, so that each device has its own kernels (as in Triton)
_stream_ready = False


def _init_stream():
    global _stream_ready
    if not _stream_ready:
        _stream_ready = True
        _tritonc.set_stream_init(None)
        _tritonc.set_stream_getter(_stream_getter())


_tritonc.set_stream_init(_init_stream)


def _env_target():
    forced = os.environ.get("TRITONC_TARGET", "")
    if forced not in ("", "c", "cuda"):
        raise ValueError(f"TRITONC_TARGET must be 'c' or 'cuda' (got {forced!r})")
    return forced


def _cpu_target():
    w = os.environ.get("TRITONC_WARP_SIZE", "32") or "32"
    if w not in ("32", "64"):
        raise ValueError(f"TRITONC_WARP_SIZE must be 32 or 64 (got {w!r})")
    return ("c:wave64" if w == "64" else "c"), int(w)


def _cuda_target():
    torch = sys.modules.get("torch")
    major, minor = 8, 0
    if torch is not None and torch.cuda.is_available():
        major, minor = torch.cuda.get_device_capability()
    arch = f"sm_{major}{minor}"
    return "cuda:" + (arch + "a" if arch == "sm_90" else arch)


def _is_constexpr_annotation(ann):
    if ann is inspect.Parameter.empty:
        return False
    if ann is _tl.constexpr or isinstance(ann, _tl.constexpr):
        return True
    if isinstance(ann, str):
        return ann.split(".")[-1].strip() == "constexpr"
    return getattr(ann, "__name__", "") == "constexpr"


class KernelParam:
    """One parameter of a kernel, as Triton describes it."""

    def __init__(self, num, param, do_not_specialize, do_not_specialize_on_alignment):
        self.num = num
        self._param = param
        self.name = param.name
        self.is_constexpr = _is_constexpr_annotation(param.annotation)
        self.do_not_specialize = do_not_specialize
        self.do_not_specialize_on_alignment = do_not_specialize_on_alignment
        self.default = param.default
        self.has_default = param.default is not inspect.Parameter.empty


class KernelInterface:
    """kernel[grid](*args, **kwargs) for the wrappers (autotune, heuristics)."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, warmup=False, **kwargs)


def _is_kernel_object(obj):
    return isinstance(obj, (JITFunction, KernelInterface)) or type(obj).__name__ in ("JITFunction", "Autotuner",
                                                                                      "Heuristics")


def _kernel_source(fn):
    """The text the compiler reads for `fn` and the file name its messages give.

    Every line that is not a top-level import, the kernel itself or a @jit
    function of its module is blanked (so line numbers stay those of the
    file), each kept function gets a plain @triton.jit decorator, and a
    kernel defined inside a function is moved to the first column."""
    filename = fn.__code__.co_filename
    lines = linecache.getlines(filename, fn.__globals__)
    if not lines:
        try:
            src = inspect.getsource(fn)
        except (OSError, TypeError):
            raise RuntimeError(f"kernel '{fn.__name__}': its source text cannot be found (tritonc compiles the "
                               "kernel's source: define it in a .py file)") from None
        lines = src.splitlines(True)
        filename = filename or "<kernel>"
        first = 1
    else:
        first = None
    text = "".join(lines)
    tree = ast.parse(text)
    keep = [None] * len(lines)   # None: blank; else the column to cut

    def keep_node(node, col):
        start = node.lineno - 1
        for i in range(start, node.end_lineno):
            keep[i] = col

    def keep_function(node):
        col = node.col_offset
        keep_node(node, col)
        if node.lineno >= 2 and (node.decorator_list or keep[node.lineno - 2] is None):
            keep[node.lineno - 2] = "@"   # the decorator's last line, or a line no other kept code has
    target_line = fn.__code__.co_firstlineno
    found = False
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == fn.__name__:
            starts = [node.lineno] + [d.lineno for d in node.decorator_list]
            if target_line in starts or first is not None:
                keep_function(node)
                found = True
                break
    if not found:
        raise RuntimeError(f"cannot find the source of kernel '{fn.__name__}' in {filename}")
    kept = [node]
    for top in tree.body:
        if isinstance(top, (ast.Import, ast.ImportFrom)):
            keep_node(top, 0)
        elif isinstance(top, ast.FunctionDef) and top.name != fn.__name__ and \
                _is_kernel_object(fn.__globals__.get(top.name)):
            keep_function(top)
            kept.append(top)
    lines = _substitute_globals(list(lines), kept, fn.__globals__, filename, 0 if first is None else first - 1)
    out = []
    for line, col in zip(lines, keep):
        if col is None:
            out.append("\n")
        elif col == "@":
            out.append("@triton.jit\n")
        else:
            out.append(line[col:] if line[:col].strip() == "" else line.lstrip())
    return "".join(out), filename


def _local_names(node):
    """The names a function binds itself (parameters, assignments, loop and with targets, imports)."""
    names = set()
    a = node.args
    for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
        names.add(arg.arg)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            names.add(sub.id)
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and sub is not node:
            names.add(sub.name)
        elif isinstance(sub, (ast.Import, ast.ImportFrom)):
            names.update((x.asname or x.name).split(".")[0] for x in sub.names)
    return names


def _language_alias(g):
    for name, value in g.items():
        if isinstance(value, types.ModuleType) and value.__name__ in ("triton.language", "tritonc.language"):
            return name
    return None


def _global_text(value, alias):
    """The source text of a constexpr global's value, or None where it has none."""
    if isinstance(value, _tl.constexpr):
        value = value.value
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value) if value >= 0 else f"({value})"
    if isinstance(value, float):
        text = repr(value)
        return None if text in ("inf", "-inf", "nan") else (text if value >= 0 else f"({text})")
    if isinstance(value, str) and "'" not in value and "\\" not in value and "\n" not in value:
        return "'" + value + "'"
    if isinstance(value, _tl.dtype) or type(value).__name__ == "dtype" and hasattr(value, "name"):
        name = getattr(value, "name", None)
        if alias and isinstance(name, str):
            return f"{alias}.{_tl._LONG.get(name, name)}"
    return None


def _substitute_globals(lines, functions, g, filename, line_base):
    """Writes the value of each module-level constexpr global that the kept
    functions read (``BLOCK = tl.constexpr(128)``, a dtype, None; with
    TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1 any int, float or bool; in a
    parameter's default any of those) in place of its name, padded to the
    name's width so that columns stay. A plain int or float read without
    being a constexpr is Triton's error."""
    alias = _language_alias(g)
    allow = os.environ.get("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS", "0") == "1"
    by_name = {f.name: f for f in functions}
    reached, todo = set(), [functions[0].name]   # the kernel and what it calls: only they raise
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        todo.extend(c.func.id for c in ast.walk(by_name[name])
                    if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in by_name)
    annotations = g.get("__annotations__", {}) or {}
    edits = {}   # line index -> [(start byte, end byte, text)]
    for node in functions:
        local = _local_names(node)
        defaults = set()
        for d in node.args.defaults + [x for x in node.args.kw_defaults if x is not None]:
            defaults.update(id(sub) for sub in ast.walk(d))
        for sub in ast.walk(node):
            if not isinstance(sub, ast.Name) or not isinstance(sub.ctx, ast.Load) or sub.id in local or \
                    sub.id not in g or sub.lineno != sub.end_lineno:
                continue
            value = g[sub.id]
            if isinstance(value, (types.ModuleType, type)) or callable(value) and not isinstance(value, _tl.constexpr):
                continue
            plain = isinstance(value, (int, float)) and not isinstance(value, _tl.constexpr)
            if plain and node.name in reached and not (allow or id(sub) in defaults or _is_constexpr_annotation(annotations.get(sub.id,
                                                                                                inspect.Parameter.empty))):
                line = lines[sub.lineno - 1]
                col = len(line.encode()[:sub.col_offset].decode(errors="replace"))
                raise _tritonc.CompilationError(
                    f"{filename}:{sub.lineno + line_base}:{col + 1}: error: cannot access global variable "
                    f"'{sub.id}' from within @jit'ed function: Triton kernels can only access global variables "
                    f"that are instantiated as constexpr (`{sub.id} = triton.language.constexpr({value!r})`); or set "
                    f"TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1\n{line.rstrip()}\n{' ' * col}^")
            text = _global_text(value, alias)
            if text is not None:
                edits.setdefault(sub.lineno - 1, []).append((sub.col_offset, sub.end_col_offset, text))
    for i, spans in edits.items():
        raw = lines[i].encode()
        for start, end, text in sorted(spans, reverse=True):
            text = text.ljust(end - start)
            raw = raw[:start] + text.encode() + raw[end:]
        lines[i] = raw.decode()
    return lines


class _Metadata(types.SimpleNamespace):
    pass


class CompiledKernel:
    """What warmup() returns: a compiled specialization, launchable as kernel[grid](*all_args)."""

    def __init__(self, jit_fn, kernel):
        self._jit = jit_fn
        self._kernel = kernel
        self.asm = kernel.asm
        self.metadata = kernel.metadata
        self.name = kernel.metadata.name
        self.n_regs = kernel.metadata.n_regs
        self.n_spills = kernel.metadata.n_spills
        self.n_max_threads = kernel.metadata.threads

    def _init_handles(self):
        pass

    def __getitem__(self, grid):
        opts = {k: v for k, v in (("num_warps", self.metadata.num_warps), ("num_stages", self.metadata.num_stages))
                if k not in self._jit.arg_names}   # a parameter of that name is the kernel's own

        def launch(*args, **kwargs):
            return self._jit._dispatch(grid, args, {**opts, **kwargs}, True)
        return launch


class JITFunction(_tritonc.Dispatcher):
    """A @jit kernel: kernel[grid](*args, num_warps=, num_stages=, **constexprs)."""

    def __init__(self, fn, version=None, do_not_specialize=None, do_not_specialize_on_alignment=None, debug=None,
                 noinline=None, repr=None, launch_metadata=None):
        if not callable(fn) and hasattr(fn, "fn"):
            fn = fn.fn
        if hasattr(fn, "fn") and not isinstance(fn, types.FunctionType):   # a real triton.jit's JITFunction
            fn = fn.fn
        self.fn = fn
        self.module = fn.__module__
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__globals__ = fn.__globals__
        self.__module__ = fn.__module__
        self.signature = inspect.signature(fn)
        names = list(self.signature.parameters)

        def as_set(items):
            out = set()
            for item in items or ():
                out.add(names[item] if isinstance(item, int) else item)
            for name in out:
                if name not in names:
                    raise ValueError(f"kernel '{fn.__name__}' has no parameter '{name}'")
            return out
        dns, dnsa = as_set(do_not_specialize), as_set(do_not_specialize_on_alignment)
        self.params = []
        for i, p in enumerate(self.signature.parameters.values()):
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(f"kernel '{fn.__name__}': *args and **kwargs parameters are not supported")
            self.params.append(KernelParam(i, p, p.name in dns, p.name in dnsa))
        self.arg_names = [p.name for p in self.params]
        self.constexprs = [p.num for p in self.params if p.is_constexpr]
        self.do_not_specialize = sorted(dns)
        self.do_not_specialize_on_alignment = sorted(dnsa)
        self.debug = debug
        self.noinline = noinline
        self._source = None
        self._setup(fn.__name__, tuple(self.arg_names), tuple(p.is_constexpr for p in self.params),
                    tuple(p.do_not_specialize for p in self.params),
                    tuple(p.do_not_specialize_on_alignment for p in self.params),
                    tuple(p.default if p.has_default else _NO_DEFAULT for p in self.params))

    @property
    def src(self):
        return inspect.getsource(self.fn)

    @property
    def cache(self):
        """Compiled kernels by specialization key, as device -> {key: kernel}."""
        out = {}
        for key, kernel in self._kernels.items():
            out.setdefault(key[0], {})[key] = kernel
        return out

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Cannot call @triton.jit'd outside of the scope of a kernel")

    def __repr__(self):
        return f"JITFunction({self.module}:{self.__qualname__})"

    def run(self, *args, grid, warmup=False, **kwargs):
        kernel = self._dispatch(grid, args, kwargs, not warmup)
        return CompiledKernel(self, kernel) if warmup and kernel is not None else kernel

    def warmup(self, *args, grid, **kwargs):
        """Compiles the specialization these arguments select, without launching it."""
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    # ---- the cache miss ----

    def _miss(self, key, values, extra):
        device = key[0]
        forced = _env_target()
        if device is None:   # no pointer arguments: the GPU when there is one
            torch = sys.modules.get("torch")
            device = "cuda" if forced != "c" and torch is not None and torch.cuda.is_available() else "cpu"
        if device.startswith("cuda") and forced == "c":
            raise RuntimeError("TRITONC_TARGET=c with CUDA memory: launch through kernel[grid] (it copies)")
        if device.startswith("cuda"):   # a kernel without pointers launched on the GPU: the stream getter too
            _init_stream()
        num_warps, num_stages = key[1], key[2]
        sig, defines = [], []
        for i, p in enumerate(self.params):
            part = key[i + 3]
            if p.is_constexpr:
                defines.append(f"{p.name}={_define_text(self, p.name, part)}")
            elif part == "None":
                defines.append(f"{p.name}=None")
            elif part == "1":
                defines.append(f"{p.name}=1")
            else:
                sig.append(part)
        if device == "cpu":
            target, width = _cpu_target()
        else:
            target, width = _cuda_target(), 32
        if self._source is None:
            self._source = _kernel_source(self.fn)
        source, filename = self._source
        stats = _compile_stats()
        started = time.perf_counter()
        try:
            info = _tritonc.compile(source, filename, self.fn.__name__, ",".join(sig), defines, num_warps,
                                    num_stages, target)
        except _tritonc.CompilationError as e:
            fp8 = [(p.name, key[i + 3]) for i, p in enumerate(self.params)
                   if isinstance(key[i + 3], str) and key[i + 3].startswith("*fp8")]
            if fp8:   # name the argument: the compiler only sees a type in the signature
                name, part = fp8[0]
                raise TypeError(f"kernel '{self.__name__}', argument '{name}': {part.split(':')[0][1:]} tensors "
                                f"are not supported by this compiler ({str(e).splitlines()[0]})") from e
            raise
        index = {name: i for i, name in enumerate(self.arg_names)}
        for name in info["arg_names"]:
            if name not in index:
                raise RuntimeError(f"kernel '{self.__name__}': the compiled kernel has an argument '{name}' "
                                   "that is not a parameter")
        params = tuple(index[name] for name in info["arg_names"])
        cpu_threads = int(os.environ.get("TRITONC_CPU_THREADS", "0") or 0)
        compiled = time.perf_counter()
        kernel = _tritonc.load(info["code"], target, self.fn.__name__, info["threads"], info["dynamic_shared"],
                               width if device == "cpu" else 0, cpu_threads, None, info["arg_types"], params)
        if stats:
            stats.kernel(self.fn.__name__, compiled - started, time.perf_counter() - compiled,
                         kernel.from_disk_cache)
        lang = "c" if device == "cpu" else "cuda"
        kernel.asm = {lang: info["code"], "tir": info["tir"], "simt": info["simt"], "source": source}
        for what in ("ptx", "cubin"):   # CUDA: what NVRTC made (or the disk cache kept)
            image = kernel.image(what)
            if image is not None:
                kernel.asm[what] = image
        regs, local = kernel.resources() if hasattr(kernel, "resources") else (0, 0)
        if device == "cpu" or regs == 0:   # no register count (the CPU, or a dry run): a nominal 32, so that
            regs = 32                      # occupancy formulas written for GPUs (tutorial 02's) still divide
        kernel.metadata = _Metadata(name=self.fn.__name__, num_warps=num_warps, num_stages=num_stages,
                                    shared=info["shared"], threads=info["threads"], warp_size=info["warp_size"],
                                    target=target, signature=",".join(sig), constants=defines, n_regs=regs,
                                    n_spills=local // 4)
        kernel.n_regs = regs
        kernel.n_spills = local // 4
        dump = os.environ.get("TRITONC_DUMP")
        if dump:
            os.makedirs(dump, exist_ok=True)
            digest = hashlib.sha256(repr(key).encode()).hexdigest()[:12]
            path = os.path.join(dump, f"{self.fn.__name__}-{digest}.{'c' if lang == 'c' else 'cu'}")
            with open(path, "w") as f:
                f.write(info["code"])
        return kernel

    # the legacy name Triton's tools use
    def _do_compile(self, *args, **kwargs):
        return self.warmup(*args, **kwargs)


def _define_text(fn, name, value):
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str) and "'" not in value and "\n" not in value:
        return "'" + value + "'"
    if isinstance(value, _tl.dtype):
        return "tl." + _tl._LONG.get(value.name, value.name)
    raise TypeError(f"kernel '{fn.__name__}': constexpr '{name}' is {type(value).__name__} {value!r}; "
                    "tritonc takes ints, floats, bools, strings and None")


class _CopyingJITFunction(JITFunction):
    """TRITONC_TARGET=c: CUDA tensors are copied to the CPU, the C output runs, and they are copied back."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def run(self, *args, grid, warmup=False, **kwargs):
        back = []

        def to_cpu(v):
            if getattr(v, "is_cuda", False) and hasattr(v, "cpu"):
                c = v.cpu()
                back.append((v, c))
                return c
            return v
        args = tuple(to_cpu(a) for a in args)
        kwargs = {k: to_cpu(v) for k, v in kwargs.items()}
        kernel = self._dispatch(grid, args, kwargs, not warmup)
        for gpu, cpu in back:
            gpu.copy_(cpu)
        return CompiledKernel(self, kernel) if warmup else kernel


def jit(fn=None, *, version=None, repr=None, launch_metadata=None, do_not_specialize=None,
        do_not_specialize_on_alignment=None, debug=None, noinline=None):
    """@jit or @jit(do_not_specialize=[...], ...): a Triton kernel."""
    cls = _CopyingJITFunction if _env_target() == "c" else JITFunction

    def decorator(f):
        return cls(f, do_not_specialize=do_not_specialize,
                   do_not_specialize_on_alignment=do_not_specialize_on_alignment, debug=debug, noinline=noinline)
    return decorator(fn) if fn is not None else decorator


class TensorWrapper:
    """A tensor seen as another dtype (triton.reinterpret)."""

    def __init__(self, base, dtype):
        self.base = base
        self.dtype = dtype
        self.data = base.data if hasattr(base, "data") else None
        self.device = getattr(base, "device", None)
        self.shape = getattr(base, "shape", None)
        self.is_cuda = getattr(base, "is_cuda", False)

    def data_ptr(self):
        return self.base.data_ptr()

    def stride(self, *args):
        return self.base.stride(*args)

    def numel(self):
        return self.base.numel()

    def element_size(self):
        return self.base.element_size()


def reinterpret(tensor, dtype):
    if isinstance(tensor, TensorWrapper):
        return tensor.base if dtype == getattr(tensor.base, "dtype", None) else TensorWrapper(tensor.base, dtype)
    return TensorWrapper(tensor, dtype)
