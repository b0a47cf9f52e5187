"""tritonc.language: what host code and kernel signatures see of triton.language.

Kernels are not run by Python: their source is compiled by tritonc. Here are
the names a module needs when it is imported and its launch code runs: the
``constexpr`` annotation and values, ``tensor``, the dtypes, and a stand-in
for every builtin (calling one outside a kernel is an error, as in Triton).
"""


class constexpr:
    """A compile-time value (``tl.constexpr``); as an annotation it marks a parameter as one."""

    def __init__(self, value):
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self):
        return f"constexpr[{self.value!r}]"

    def __hash__(self):
        return hash(self.value)

    def __eq__(self, other):
        return self.value == (other.value if isinstance(other, constexpr) else other)

    def __bool__(self):
        return bool(self.value)

    def __index__(self):
        return self.value.__index__()

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __call__(self, *args, **kwargs):
        return self.value(*args, **kwargs)


def _binop(name):
    def op(self, other):
        return constexpr(getattr(self.value, name)(other.value if isinstance(other, constexpr) else other))
    return op


for _n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor", "lshift", "rshift",
           "lt", "le", "gt", "ge", "ne"):
    setattr(constexpr, f"__{_n}__", _binop(f"__{_n}__"))
    if _n not in ("lt", "le", "gt", "ge", "ne"):
        setattr(constexpr, f"__r{_n}__", _binop(f"__r{_n}__"))


class dtype:
    """An element type: ``tl.float32`` and the others; ``name`` is Triton's short name ("fp32")."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"triton.language.{_LONG.get(self.name, self.name)}"

    __str__ = lambda self: self.name

    def __eq__(self, other):
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self):
        return hash(("tl.dtype", self.name))

    def is_floating(self):
        return self.name.startswith(("fp", "bf"))

    def is_int(self):
        return self.name.startswith(("i", "u"))

    def is_ptr(self):
        return False

    @property
    def primitive_bitwidth(self):
        return {"i1": 1, "fp8e4nv": 8, "fp8e5": 8, "fp8e4b15": 8}.get(
            self.name, int("".join(c for c in self.name if c.isdigit()) or 0))


class pointer_type(dtype):
    def __init__(self, element_ty, address_space=1, const=False):
        super().__init__("*" + element_ty.name)
        self.element_ty = element_ty

    def is_ptr(self):
        return True


class block_type(dtype):
    def __init__(self, element_ty, shape):
        super().__init__(element_ty.name)
        self.element_ty = element_ty
        self.shape = shape


class tensor:
    """The type of tile values (an annotation only, outside a kernel)."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("tl.tensor values exist only inside a @jit kernel")


_LONG = {"i1": "int1", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8",
         "u16": "uint16", "u32": "uint32", "u64": "uint64", "fp16": "float16", "bf16": "bfloat16",
         "fp32": "float32", "fp64": "float64", "fp8e4nv": "float8e4nv", "fp8e5": "float8e5",
         "fp8e4b15": "float8e4b15", "fp8e4b8": "float8e4b8", "fp8e5b16": "float8e5b16"}
for _short, _long in _LONG.items():
    globals()[_long] = dtype(_short)
float8e4nv = globals()["float8e4nv"]
void = dtype("void")
pi32_t = pointer_type(globals()["int32"])


def _builtin(name):
    def stub(*args, **kwargs):
        raise RuntimeError(f"tl.{name} can be called only inside a @jit kernel")
    stub.__name__ = name
    return stub


_BUILTINS = (
    "program_id num_programs arange zeros zeros_like full load store dot sum max min argmax argmin reduce "
    "associative_scan cumsum cumprod where exp exp2 log log2 sqrt rsqrt sigmoid softmax abs cos sin erf "
    "fma floor ceil maximum minimum clamp broadcast broadcast_to reshape view trans permute expand_dims "
    "atomic_add atomic_cas atomic_xchg atomic_max atomic_min atomic_and atomic_or atomic_xor cast "
    "multiple_of max_contiguous max_constancy assume device_assert static_assert static_print "
    "device_print debug_barrier rand randn randint randint4x umulhi fdiv div_rn sqrt_rn join split "
    "interleave flip ravel histogram make_block_ptr advance static_range range cat xor_sum swizzle2d "
    "make_tensor_descriptor inline_asm_elementwise dot_scaled gather sort topk"
).split()
for _b in _BUILTINS:
    globals()[_b] = _builtin(_b)


class static_range:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("tl.static_range can be used only inside a @jit kernel")


class range:  # noqa: A001 (Triton's name)
    def __init__(self, *args, **kwargs):
        raise RuntimeError("tl.range can be used only inside a @jit kernel")


from . import math, extra  # noqa: E402


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _builtin(name)
