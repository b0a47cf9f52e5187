/* _tritonc.c: the CPython extension under the tritonc package.
 *
 *   compile_variant  one specialization of a kernel through the library: code, IR text, launch shape
 *   Kernel           a loaded kernel (tritonc_load) and how its arguments are packed
 *   classify         an argument's specialization key part and launch value
 *   Dispatcher       the base of tritonc.jit's JITFunction: kernel[grid](...) binds the arguments,
 *                    builds the key, finds or compiles the kernel and launches it, all here
 *
 * The Python layer (tritonc/jit.py) supplies what is easier there: the
 * kernel's source text, the compile on a cache miss (Dispatcher._miss),
 * dtype names of objects seen for the first time, torch's current stream. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "tritonc.h"

#include "emit/emit.h"
#include "gpu/simt.h"
#include "gpu/target.h"
#include "ir/heuristics.h"
#include "ir/specialize.h"
#include "runtime/cuda.h"
#include "triton/triton.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

/* ---- module state: set by tritonc/jit.py through configure() ---- */

static PyObject *dtype_names;      /* dict: dtype object -> "fp32" ... */
static PyObject *dtype_resolver;   /* callable(dtype) -> str, for dtypes not yet in dtype_names */
static PyObject *stream_getter;    /* callable() -> int: the current CUDA stream; None: the default stream */
static PyObject *constexpr_type;   /* tl.constexpr: values of it are unwrapped (.value) */
static PyObject *no_default;       /* marks parameters without a default */
static PyObject *s_key_none, *s_key_one, *s_i1, *s_i32, *s_i32_16, *s_i64, *s_i64_16, *s_u64, *s_u64_16,
	*s_fp32, *s_data_ptr, *s_dtype, *s_is_cuda, *s_device, *s_type, *s_value, *s_cai, *s_dlpack, *s_data,
	*s_typestr, *s_miss, *s_num_warps, *s_num_stages, *s_cpu, *s_cuda;

static PyObject *CompileError;
static PyObject *small_ints[33];   /* 0 to 32: num_warps and num_stages in keys */

/* _dry_run(mode), for measuring the launch path where there is no GPU: 1
 * makes every launch a no-op (counted), 2 also takes every pointer argument
 * as CUDA memory, so that the CUDA path runs, its kernels compiled to CUDA
 * source but not loaded. */
static int dry_run;
static unsigned long long dry_launches;

/* ---- compile_variant: the one place that calls the compiler ---- */

typedef struct Variant {
	char *code, *tir, *simt;
	char *diag;
	int threads, shared_bytes, dynamic_bytes, warp_size;
	int nargs;
	char **arg_names, **arg_types;
} Variant;

static void variant_free(Variant *v)
{
	free(v->code);
	free(v->tir);
	free(v->simt);
	free(v->diag);
	for (int i = 0; i < v->nargs; i++) {
		free(v->arg_names[i]);
		free(v->arg_types[i]);
	}
	free(v->arg_names);
	free(v->arg_types);
}

/* Specializes, lowers and prints kernel `name` of `source` for `target`
 * through the library's driver (tritonc_compile_kernel): signature entries
 * with ":16" are divisible by 16, pointers too (pointer_hints: unlike
 * tritonc compile, which takes every pointer as aligned). 0 on success;
 * otherwise v->diag holds the messages. */
static int compile_variant(const char *source, const char *filename, const char *name, const char *signature,
			   const char *const *defines, int ndefines, int num_warps, int num_stages,
			   const char *target_spec, Variant *v)
{
	memset(v, 0, sizeof *v);
	tritonc_options o = {.kernel = name, .signature = signature, .defines = defines, .ndefines = ndefines,
			     .num_warps = num_warps, .num_stages = num_stages, .target = target_spec,
			     .dump = "tir,simt,code", .pointer_hints = 1};
	char *diag = NULL;
	tritonc_result *r = tritonc_compile_kernel(source, filename, &o, &diag);
	v->diag = diag;
	if (!r)
		return -1;
	const char *simt = tritonc_result_simt(r);
	v->code = base_strdup(tritonc_result_code(r));
	v->tir = base_strdup(tritonc_result_tir(r));
	v->simt = base_strdup(simt ? simt : "");
	v->threads = tritonc_result_threads(r);
	v->shared_bytes = tritonc_result_shared_bytes(r);
	v->dynamic_bytes = tritonc_result_dynamic_shared_bytes(r);
	v->warp_size = tritonc_result_warp_size(r);
	int np = tritonc_result_num_params(r);
	v->arg_names = calloc((size_t)np + 1, sizeof *v->arg_names);
	v->arg_types = calloc((size_t)np + 1, sizeof *v->arg_types);
	for (int i = 0; i < np; i++) {
		int j = tritonc_result_param_index(r, i);
		if (j < 0)
			continue;
		v->arg_names[j] = base_strdup(tritonc_result_param_name(r, i));
		v->arg_types[j] = base_strdup(tritonc_result_param_type(r, i));
		v->nargs = j + 1 > v->nargs ? j + 1 : v->nargs;
	}
	tritonc_result_free(r);
	return 0;
}

/* compile(source, filename, name, signature, defines, num_warps, num_stages, target) -> dict */
static PyObject *py_compile(PyObject *self, PyObject *args)
{
	const char *source, *filename, *name, *signature, *target;
	PyObject *defines;
	int num_warps, num_stages;
	if (!PyArg_ParseTuple(args, "ssssO!iis", &source, &filename, &name, &signature, &PyList_Type, &defines,
			      &num_warps, &num_stages, &target))
		return NULL;
	Py_ssize_t nd = PyList_GET_SIZE(defines);
	const char **defs = calloc((size_t)nd + 1, sizeof *defs);
	for (Py_ssize_t i = 0; i < nd; i++) {
		defs[i] = PyUnicode_AsUTF8(PyList_GET_ITEM(defines, i));
		if (!defs[i]) {
			free(defs);
			return NULL;
		}
	}
	Variant v;
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = compile_variant(source, filename, name, signature, defs, (int)nd, num_warps, num_stages, target, &v);
	Py_END_ALLOW_THREADS
	free(defs);
	PyObject *result = NULL;
	if (rc != 0) {
		PyErr_SetString(CompileError, v.diag ? v.diag : "the kernel did not compile");
	} else {
		PyObject *names = PyTuple_New(v.nargs), *types = PyTuple_New(v.nargs);
		for (int i = 0; names && types && i < v.nargs; i++) {
			PyTuple_SET_ITEM(names, i, PyUnicode_FromString(v.arg_names[i]));
			PyTuple_SET_ITEM(types, i, PyUnicode_FromString(v.arg_types[i]));
		}
		result = Py_BuildValue("{s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:N,s:N,s:s}", "code", v.code, "tir", v.tir,
				       "simt", v.simt, "threads", v.threads, "shared", v.shared_bytes, "dynamic_shared",
				       v.dynamic_bytes, "warp_size", v.warp_size,
				       "arg_names", names, "arg_types", types, "diagnostics", v.diag ? v.diag : "");
	}
	variant_free(&v);
	return result;
}

/* ---- Kernel: a loaded kernel and its argument packing ---- */

typedef enum { PK_PTR, PK_I8, PK_I16, PK_I32, PK_I64, PK_F32, PK_F64 } Pack;

typedef struct {
	PyObject_HEAD
	PyObject *dict;
	tritonc_kernel *k;
	int cuda;
	int nargs;
	int *param;      /* the dispatcher parameter each argument comes from */
	Pack *pack;
} KernelObject;

static void kernel_dealloc(KernelObject *self)
{
	PyObject_GC_UnTrack(self);
	Py_CLEAR(self->dict);
	tritonc_unload(self->k);
	free(self->param);
	free(self->pack);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int kernel_traverse(KernelObject *self, visitproc visit, void *arg)
{
	Py_VISIT(self->dict);
	return 0;
}

static int kernel_clear(KernelObject *self)
{
	Py_CLEAR(self->dict);
	return 0;
}

static PyTypeObject KernelType;

static int parse_pack(const char *t, Pack *out)
{
	static const struct { const char *name; Pack p; } packs[] = {
		{"i1", PK_I8}, {"i8", PK_I8}, {"u8", PK_I8}, {"i16", PK_I16}, {"u16", PK_I16}, {"i32", PK_I32}, {"u32", PK_I32},
		{"i64", PK_I64}, {"u64", PK_I64}, {"fp32", PK_F32}, {"fp16", PK_F32}, {"bf16", PK_F32}, {"fp64", PK_F64},
	};
	if (t[0] == '*') {
		*out = PK_PTR;
		return 1;
	}
	for (size_t i = 0; i < sizeof packs / sizeof packs[0]; i++)
		if (!strcmp(t, packs[i].name)) {
			*out = packs[i].p;
			return 1;
		}
	return 0;
}

/* load(code, target, name, threads, shared, run_width, cpu_threads, cache_dir, arg_types, arg_params) -> Kernel */
static PyObject *py_load(PyObject *self, PyObject *args)
{
	const char *code, *target, *name, *cache_dir;
	int threads, shared, run_width, cpu_threads;
	PyObject *types, *params;
	if (!PyArg_ParseTuple(args, "sssiiiizO!O!", &code, &target, &name, &threads, &shared, &run_width,
			      &cpu_threads, &cache_dir, &PyTuple_Type, &types, &PyTuple_Type, &params))
		return NULL;
	Py_ssize_t n = PyTuple_GET_SIZE(types);
	if (PyTuple_GET_SIZE(params) != n) {
		PyErr_SetString(PyExc_ValueError, "load: arg_types and arg_params differ in length");
		return NULL;
	}
	KernelObject *ko = PyObject_GC_New(KernelObject, &KernelType);
	if (!ko)
		return NULL;
	ko->dict = NULL;
	ko->k = NULL;
	ko->nargs = (int)n;
	ko->param = calloc((size_t)n + 1, sizeof *ko->param);
	ko->pack = calloc((size_t)n + 1, sizeof *ko->pack);
	ko->cuda = !strncmp(target, "cuda", 4);
	PyObject_GC_Track(ko);
	for (Py_ssize_t i = 0; i < n; i++) {
		const char *t = PyUnicode_AsUTF8(PyTuple_GET_ITEM(types, i));
		long p = PyLong_AsLong(PyTuple_GET_ITEM(params, i));
		if (!t || (p == -1 && PyErr_Occurred())) {
			Py_DECREF(ko);
			return NULL;
		}
		if (!parse_pack(t, &ko->pack[i])) {
			PyErr_Format(PyExc_TypeError, "cannot pass an argument of type %s", t);
			Py_DECREF(ko);
			return NULL;
		}
		ko->param[i] = (int)p;
	}
	tritonc_load_options lo = {.target = target, .name = name, .threads = threads, .shared_bytes = shared,
				   .run_width = run_width, .cpu_threads = cpu_threads, .cache_dir = cache_dir};
	char *diag = NULL;
	if (dry_run && ko->cuda)   /* nothing to load it into: launches are no-ops */
		return (PyObject *)ko;
	Py_BEGIN_ALLOW_THREADS
	ko->k = tritonc_load(code, &lo, &diag);
	Py_END_ALLOW_THREADS
	if (!ko->k) {
		PyErr_SetString(CompileError, diag ? diag : "tritonc_load failed");
		tritonc_free(diag);
		Py_DECREF(ko);
		return NULL;
	}
	return (PyObject *)ko;
}

static PyObject *kernel_get_cached(KernelObject *self, void *closure)
{
	return PyBool_FromLong(tritonc_kernel_cached(self->k));
}

static PyObject *kernel_get_device(KernelObject *self, void *closure)
{
	return Py_NewRef(self->cuda ? s_cuda : s_cpu);
}

static PyObject *kernel_resources(KernelObject *self, PyObject *unused)
{
	int regs = 0, local = 0;
	tritonc_kernel_resources(self->k, &regs, &local);
	return Py_BuildValue("(ii)", regs, local);
}

/* kernel.image("ptx") -> str, image("cubin") -> bytes, None when the load made none (C kernels) */
static PyObject *kernel_image(KernelObject *self, PyObject *what)
{
	const char *name = PyUnicode_AsUTF8(what);
	if (!name)
		return NULL;
	if (strcmp(name, "ptx") && strcmp(name, "cubin")) {
		PyErr_Format(PyExc_ValueError, "image: 'ptx' or 'cubin', not '%s'", name);
		return NULL;
	}
	size_t size = 0;
	const char *data = self->k ? tritonc_kernel_asm(self->k, name, &size) : NULL;
	if (!data)
		Py_RETURN_NONE;
	if (name[0] == 'p')
		return PyUnicode_DecodeUTF8(data, (Py_ssize_t)size, "replace");
	return PyBytes_FromStringAndSize(data, (Py_ssize_t)size);
}

static PyMethodDef kernel_methods[] = {
	{"image", (PyCFunction)kernel_image, METH_O, "image('ptx') -> str, image('cubin') -> bytes; None when not made"},
	{"resources", (PyCFunction)kernel_resources, METH_NOARGS, "(registers a thread, local bytes a thread)"},
	{NULL},
};

static PyGetSetDef kernel_getset[] = {
	{"from_disk_cache", (getter)kernel_get_cached, NULL, "loaded from the disk cache", NULL},
	{"device", (getter)kernel_get_device, NULL, "'cpu' or 'cuda'", NULL},
	{"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
	{NULL},
};

static PyTypeObject KernelType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "tritonc._tritonc.Kernel",
	.tp_basicsize = sizeof(KernelObject),
	.tp_dealloc = (destructor)kernel_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
	.tp_traverse = (traverseproc)kernel_traverse,
	.tp_clear = (inquiry)kernel_clear,
	.tp_getset = kernel_getset,
	.tp_methods = kernel_methods,
	.tp_dictoffset = offsetof(KernelObject, dict),
	.tp_doc = "a compiled kernel, loaded",
};

/* ---- classify: one argument's key part and launch value ---- */

enum { DEV_NONE, DEV_CPU, DEV_CUDA };

typedef struct Arg {
	PyObject *key;       /* borrowed: key strings live as long as the module (interned, or in key_pairs) */
	int device;
	int is_ptr;
	int64_t i;           /* ints and bools; pointers */
	double f;
	int has_view;
	PyObject *keep;      /* a DLPack capsule, dropped after the launch */
	Py_buffer view;      /* numpy and other buffers, released after the launch */
} Arg;

static void arg_release(Arg *a)
{
	if (a->has_view)
		PyBuffer_Release(&a->view);
	a->has_view = 0;
	Py_CLEAR(a->keep);
}

/* The key strings of a pointer to one element type, ("*fp32", "*fp32:16"):
 * by name (key_pairs), by dtype object (dtype_pairs, filled as dtypes are
 * met), and for the names the C code knows itself (known_pairs). */
static PyObject *key_pairs;     /* dict: "fp32" -> ("*fp32", "*fp32:16") */
static PyObject *dtype_pairs;   /* dict: dtype object -> the same pair */

enum { EL_I1, EL_I8, EL_U8, EL_I16, EL_U16, EL_I32, EL_U32, EL_I64, EL_U64, EL_FP16, EL_BF16, EL_FP32, EL_FP64, EL_COUNT };
static const char *const known_names[EL_COUNT] = {"i1", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64",
						  "fp16", "bf16", "fp32", "fp64"};
static PyObject *known_pairs[EL_COUNT];

/* The pair for element type `name` (borrowed: key_pairs keeps it). */
static PyObject *pair_of_name(PyObject *name)
{
	PyObject *pair = PyDict_GetItemWithError(key_pairs, name);
	if (pair || PyErr_Occurred())
		return pair;
	PyObject *plain = PyUnicode_FromFormat("*%U", name);
	PyObject *hinted = PyUnicode_FromFormat("*%U:16", name);
	if (plain)
		PyUnicode_InternInPlace(&plain);
	if (hinted)
		PyUnicode_InternInPlace(&hinted);
	pair = plain && hinted ? PyTuple_Pack(2, plain, hinted) : NULL;
	Py_XDECREF(plain);
	Py_XDECREF(hinted);
	if (!pair)
		return NULL;
	int rc = PyDict_SetItem(key_pairs, name, pair);
	Py_DECREF(pair);   /* key_pairs keeps it */
	return rc < 0 ? NULL : pair;
}

/* The tritonc dtype name of `dtype` (a torch, numpy or Triton dtype, or a string). New reference or NULL. */
static PyObject *dtype_name_of(PyObject *dtype)
{
	PyObject *name = PyDict_GetItemWithError(dtype_names, dtype);
	if (name)
		return Py_NewRef(name);
	if (PyErr_Occurred())
		PyErr_Clear();   /* unhashable: ask each time */
	if (!dtype_resolver || dtype_resolver == Py_None) {
		PyErr_SetString(PyExc_TypeError, "unknown dtype");
		return NULL;
	}
	name = PyObject_CallOneArg(dtype_resolver, dtype);
	if (name && !PyUnicode_Check(name)) {
		PyErr_Format(PyExc_TypeError, "the dtype resolver gave %.100s, not a str", Py_TYPE(name)->tp_name);
		Py_CLEAR(name);
	}
	if (name && PyDict_SetItem(dtype_names, dtype, name) < 0)
		PyErr_Clear();
	return name;
}

/* The pair for a dtype object (borrowed), through dtype_pairs. */
static PyObject *pair_of_dtype(PyObject *dtype)
{
	PyObject *pair = PyDict_GetItemWithError(dtype_pairs, dtype);
	if (pair)
		return pair;
	int hashable = !PyErr_Occurred();
	PyErr_Clear();
	PyObject *name = dtype_name_of(dtype);
	if (!name)
		return NULL;
	pair = pair_of_name(name);
	Py_DECREF(name);
	if (pair && hashable && PyDict_SetItem(dtype_pairs, dtype, pair) < 0)
		PyErr_Clear();
	return pair;
}

static int format_dtype(const char *f)
{
	while (*f == '<' || *f == '=' || *f == '@' || *f == '!' || *f == '>')
		f++;
	if (!f[0] || f[1])
		return -1;
	switch (f[0]) {
	case '?': return EL_I1;
	case 'b': return EL_I8;
	case 'B': return EL_U8;
	case 'h': return EL_I16;
	case 'H': return EL_U16;
	case 'i': return EL_I32;
	case 'I': return EL_U32;
	case 'l': case 'q': return EL_I64;
	case 'L': case 'Q': return EL_U64;
	case 'e': return EL_FP16;
	case 'f': return EL_FP32;
	case 'd': return EL_FP64;
	}
	return -1;
}

static void set_ptr(Arg *a, PyObject *pair, int64_t ptr, int align, int device)
{
	a->key = PyTuple_GET_ITEM(pair, align && ptr % 16 == 0);
	a->is_ptr = 1;
	a->i = ptr;
	a->device = dry_run == 2 ? DEV_CUDA : device;
}

/* A DLPack capsule's DLManagedTensor, as the DLPack C header lays it out. */
typedef struct {
	void *data;
	struct { int32_t device_type, device_id; } device;
	int32_t ndim;
	struct { uint8_t code, bits; uint16_t lanes; } dtype;
	int64_t *shape, *strides;
	uint64_t byte_offset;
} DLTensorView;

static int dlpack_dtype(int code, int bits)
{
	switch (code) {
	case 0: return bits == 8 ? EL_I8 : bits == 16 ? EL_I16 : bits == 32 ? EL_I32 : bits == 64 ? EL_I64 : -1;
	case 1: return bits == 8 ? EL_U8 : bits == 16 ? EL_U16 : bits == 32 ? EL_U32 : bits == 64 ? EL_U64 : -1;
	case 2: return bits == 16 ? EL_FP16 : bits == 32 ? EL_FP32 : bits == 64 ? EL_FP64 : -1;
	case 4: return bits == 16 ? EL_BF16 : -1;
	case 6: return bits == 8 ? EL_I1 : -1;
	}
	return -1;
}

static int classify_dlpack(Arg *a, PyObject *fn, int align)
{
	PyObject *cap = PyObject_CallNoArgs(fn);
	if (!cap)
		return -1;
	DLTensorView *t = PyCapsule_GetPointer(cap, "dltensor");
	if (!t) {
		Py_DECREF(cap);
		return -1;
	}
	int dt = dlpack_dtype(t->dtype.code, t->dtype.bits);
	int dev = t->device.device_type == 2 ? DEV_CUDA
		  : t->device.device_type == 1 || t->device.device_type == 3 ? DEV_CPU : DEV_NONE;
	if (dt < 0 || !dev || t->dtype.lanes != 1) {
		PyErr_Format(PyExc_TypeError, "DLPack tensor of dtype code %d, %d bits, on device type %d is not supported",
			     t->dtype.code, t->dtype.bits, t->device.device_type);
		Py_DECREF(cap);
		return -1;
	}
	set_ptr(a, known_pairs[dt], (int64_t)((uintptr_t)t->data + t->byte_offset), align, dev);
	a->keep = cap;
	return 0;
}

/* How objects of one type give their pointer, dtype and device, found
 * once a type: the types with data_ptr() (torch tensors, Triton's duck
 * type) call the type's own `dtype` and `is_cuda` descriptors directly when
 * they are data descriptors (which no instance attribute can hide), the
 * buffer, CUDA array interface and DLPack types skip the probing. An entry
 * holds while the type's version tag is the one it was made under. */
enum { TK_OTHER, TK_DATA_PTR, TK_CAI, TK_BUFFER, TK_DLPACK };

typedef struct {
	PyTypeObject *type;      /* strong */
	unsigned int version;
	int kind;
	PyObject *dtype_get;     /* strong: the type's `dtype` data descriptor, or NULL (getattr) */
	PyObject *is_cuda_get;   /* strong: the `is_cuda` data descriptor, or NULL (getattr, where the type has one) */
	int has_is_cuda;
} TypeInfo;

#define TYPE_INFOS 16
static TypeInfo type_infos[TYPE_INFOS];
static int n_type_infos;

static int type_has_name(PyTypeObject *t, PyObject *name)
{
	return _PyType_Lookup(t, name) != NULL;
}

static PyObject *data_descriptor(PyTypeObject *t, PyObject *name)
{
	PyObject *d = _PyType_Lookup(t, name);
	if (d && Py_TYPE(d)->tp_descr_get && Py_TYPE(d)->tp_descr_set)
		return Py_NewRef(d);
	return NULL;
}

static void type_info_fill(TypeInfo *ti, PyObject *obj)
{
	PyTypeObject *t = Py_TYPE(obj);
	Py_CLEAR(ti->dtype_get);
	Py_CLEAR(ti->is_cuda_get);
	ti->kind = TK_OTHER;
	if (type_has_name(t, s_data_ptr)) {
		ti->kind = TK_DATA_PTR;
		ti->dtype_get = data_descriptor(t, s_dtype);
		ti->is_cuda_get = data_descriptor(t, s_is_cuda);
		ti->has_is_cuda = type_has_name(t, s_is_cuda);
	} else if (type_has_name(t, s_cai)) {
		ti->kind = TK_CAI;
	} else if (PyObject_CheckBuffer(obj) && !PyBytes_Check(obj)) {
		ti->kind = TK_BUFFER;
	} else if (type_has_name(t, s_dlpack)) {
		ti->kind = TK_DLPACK;
	}
	ti->version = t->tp_version_tag;
}

/* The entry of obj's type, or NULL where none can be kept (then probe). */
static TypeInfo *type_info(PyObject *obj)
{
	PyTypeObject *t = Py_TYPE(obj);
	for (int i = 0; i < n_type_infos; i++) {
		TypeInfo *ti = &type_infos[i];
		if (ti->type != t)
			continue;
		if (ti->version != t->tp_version_tag || !t->tp_version_tag)
			type_info_fill(ti, obj);
		return ti->version ? ti : NULL;
	}
	if (n_type_infos == TYPE_INFOS)
		return NULL;
	TypeInfo *ti = &type_infos[n_type_infos];
	memset(ti, 0, sizeof *ti);
	type_info_fill(ti, obj);
	if (!ti->version) {   /* no version tag to check it by */
		Py_CLEAR(ti->dtype_get);
		Py_CLEAR(ti->is_cuda_get);
		return NULL;
	}
	ti->type = (PyTypeObject *)Py_NewRef(t);
	n_type_infos++;
	return ti;
}

static PyObject *get_through(PyObject *descr, PyObject *obj, PyObject *name)
{
	if (descr)
		return Py_TYPE(descr)->tp_descr_get(descr, obj, (PyObject *)Py_TYPE(obj));
	return PyObject_GetAttr(obj, name);
}

/* torch tensors and Triton's duck type: data_ptr() and dtype */
static int classify_data_ptr(Arg *a, PyObject *obj, const TypeInfo *ti, int align)
{
	PyObject *p = PyObject_CallMethodNoArgs(obj, s_data_ptr);
	if (!p)
		return -1;
	unsigned long long ptr = PyLong_AsUnsignedLongLongMask(p);
	Py_DECREF(p);
	if (ptr == (unsigned long long)-1 && PyErr_Occurred())
		return -1;
	PyObject *dtype = get_through(ti ? ti->dtype_get : NULL, obj, s_dtype);
	if (!dtype) {
		PyErr_Clear();
		PyErr_Format(PyExc_TypeError, "an object with data_ptr() needs a dtype (got %.100s)", Py_TYPE(obj)->tp_name);
		return -1;
	}
	PyObject *pair = pair_of_dtype(dtype);
	Py_DECREF(dtype);
	if (!pair)
		return -1;
	int dev = DEV_CUDA;   /* Triton's duck type is GPU memory */
	PyObject *is_cuda;
	if (ti && ti->is_cuda_get)
		is_cuda = get_through(ti->is_cuda_get, obj, s_is_cuda);
	else if (ti ? ti->has_is_cuda : type_has_name(Py_TYPE(obj), s_is_cuda))
		is_cuda = PyObject_GetAttr(obj, s_is_cuda);
	else   /* an instance attribute, if any */
		is_cuda = PyObject_HasAttr(obj, s_is_cuda) ? PyObject_GetAttr(obj, s_is_cuda) : NULL;
	if (is_cuda) {
		int t = PyObject_IsTrue(is_cuda);
		Py_DECREF(is_cuda);
		if (t < 0)
			return -1;
		dev = t ? DEV_CUDA : DEV_CPU;
	} else {
		PyErr_Clear();
		PyObject *device = PyObject_GetAttr(obj, s_device);
		if (device) {
			PyObject *text = PyObject_Str(device);
			if (text && PyUnicode_CompareWithASCIIString(text, "cpu") == 0)
				dev = DEV_CPU;
			Py_XDECREF(text);
			Py_DECREF(device);
		}
		PyErr_Clear();
	}
	set_ptr(a, pair, (int64_t)ptr, align, dev);
	return 0;
}

static int classify_cai(Arg *a, PyObject *cai, int align)
{
	PyObject *data = PyDict_Check(cai) ? PyDict_GetItemWithError(cai, s_data) : NULL;
	PyObject *typestr = PyDict_Check(cai) ? PyDict_GetItemWithError(cai, s_typestr) : NULL;
	if (!data || !typestr || !PyTuple_Check(data) || PyTuple_GET_SIZE(data) < 1) {
		if (!PyErr_Occurred())
			PyErr_Format(PyExc_TypeError, "__cuda_array_interface__ lacks data or typestr");
		return -1;
	}
	unsigned long long ptr = PyLong_AsUnsignedLongLongMask(PyTuple_GET_ITEM(data, 0));
	if (ptr == (unsigned long long)-1 && PyErr_Occurred())
		return -1;
	PyObject *pair = pair_of_dtype(typestr);
	if (!pair)
		return -1;
	set_ptr(a, pair, (int64_t)ptr, align, DEV_CUDA);
	return 0;
}

/* An object's __cuda_array_interface__, classified. */
static int classify_cai_of(Arg *a, PyObject *obj, int align)
{
	PyObject *cai = PyObject_GetAttr(obj, s_cai);
	if (!cai)
		return -1;
	int rc = classify_cai(a, cai, align);
	Py_DECREF(cai);
	return rc;
}

static int classify_buffer(Arg *a, PyObject *obj, int align)
{
	if (PyObject_GetBuffer(obj, &a->view, PyBUF_RECORDS_RO) < 0)
		return -1;
	a->has_view = 1;
	int dt = format_dtype(a->view.format ? a->view.format : "B");
	if (dt < 0) {
		PyErr_Format(PyExc_TypeError, "arrays of format '%s' are not supported", a->view.format);
		return -1;
	}
	set_ptr(a, known_pairs[dt], (int64_t)(uintptr_t)a->view.buf, align, DEV_CPU);
	return 0;
}

static int classify_int(Arg *a, PyObject *obj, int specialize, int align)
{
	int overflow = 0;
	long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
	if (overflow > 0) {
		unsigned long long u = PyLong_AsUnsignedLongLong(obj);
		if (u == (unsigned long long)-1 && PyErr_Occurred()) {
			PyErr_Clear();
			PyErr_Format(PyExc_OverflowError, "the integer %R does not fit in 64 bits", obj);
			return -1;
		}
		a->i = (int64_t)u;
		a->key = align && specialize && u % 16 == 0 ? s_u64_16 : s_u64;
		return 0;
	}
	if (overflow < 0) {
		PyErr_Format(PyExc_OverflowError, "the integer %R does not fit in 64 bits", obj);
		return -1;
	}
	if (v == -1 && PyErr_Occurred())
		return -1;
	a->i = v;
	if (specialize && v == 1)
		a->key = s_key_one;
	else if (v >= INT32_MIN && v <= INT32_MAX)
		a->key = align && specialize && v % 16 == 0 ? s_i32_16 : s_i32;
	else
		a->key = align && specialize && v % 16 == 0 ? s_i64_16 : s_i64;
	return 0;
}

/* Fills `a` for `obj`; the caller names the argument in a message. */
static int classify(Arg *a, PyObject *obj, int specialize, int align)
{
	a->key = NULL;
	a->device = DEV_NONE;
	a->is_ptr = 0;
	a->i = 0;
	a->f = 0;
	a->has_view = 0;
	a->keep = NULL;
	if (obj == Py_None) {
		a->key = s_key_none;
		return 0;
	}
	if (PyBool_Check(obj)) {
		a->key = s_i1;
		a->i = obj == Py_True;
		return 0;
	}
	if (PyLong_Check(obj))
		return classify_int(a, obj, specialize, align);
	if (PyFloat_Check(obj)) {
		a->key = s_fp32;
		a->f = PyFloat_AS_DOUBLE(obj);
		return 0;
	}
	align = align && specialize;
	TypeInfo *ti = type_info(obj);
	if (ti) {
		switch (ti->kind) {
		case TK_DATA_PTR:
			return classify_data_ptr(a, obj, ti, align);
		case TK_BUFFER:
			return classify_buffer(a, obj, align);
		case TK_CAI:
			return classify_cai_of(a, obj, align);
		default:
			break;
		}
	}
	if (constexpr_type && PyObject_TypeCheck(obj, (PyTypeObject *)constexpr_type)) {
		PyObject *v = PyObject_GetAttr(obj, s_value);
		if (!v)
			return -1;
		int rc = classify(a, v, specialize, align);
		Py_DECREF(v);
		return rc;
	}
	/* what the type offers, looked up without raising (a failed getattr costs an exception) */
	PyTypeObject *t = Py_TYPE(obj);
	int has_data_ptr = type_has_name(t, s_data_ptr), has_cai = !has_data_ptr && type_has_name(t, s_cai);
	int has_buffer = !has_data_ptr && !has_cai && PyObject_CheckBuffer(obj) && !PyBytes_Check(obj);
	int has_dlpack = !has_data_ptr && !has_cai && !has_buffer && type_has_name(t, s_dlpack);
	if (!has_data_ptr && !has_cai && !has_buffer && !has_dlpack) {   /* duck types with instance attributes */
		has_data_ptr = PyObject_HasAttr(obj, s_data_ptr);
		has_cai = !has_data_ptr && PyObject_HasAttr(obj, s_cai);
		has_dlpack = !has_data_ptr && !has_cai && PyObject_HasAttr(obj, s_dlpack);
	}
	if (has_data_ptr)
		return classify_data_ptr(a, obj, NULL, align);
	if (has_buffer)
		return classify_buffer(a, obj, align);
	if (has_cai)
		return classify_cai_of(a, obj, align);
	if (has_dlpack) {
		PyObject *dl = PyObject_GetAttr(obj, s_dlpack);
		if (!dl)
			return -1;
		int rc = classify_dlpack(a, dl, align);
		Py_DECREF(dl);
		return rc;
	}
	PyErr_Format(PyExc_TypeError,
		     "cannot pass an object of type %.100s (expected a tensor or array, an int, a float, a bool "
		     "or None)", Py_TYPE(obj)->tp_name);
	return -1;
}

/* ---- Dispatcher ---- */

#define ARGS_ON_STACK 32
#define EXTRA_ON_STACK 16

/* One compiled kernel of a dispatcher: its key (the device, num_warps,
 * num_stages, then one part a parameter: a key string or a constexpr's
 * value) and the Kernel. The cache is an open-addressed table of these. */
typedef struct {
	Py_hash_t hash;
	PyObject **parts;   /* owned, nparams + 3 */
	PyObject *kernel;   /* owned; NULL marks an empty slot */
} Entry;

typedef struct {
	PyObject_HEAD
	PyObject *dict;
	PyObject *name;          /* the kernel's name */
	PyObject *params;        /* tuple of names */
	PyObject *defaults;      /* tuple; no_default where none */
	int nparams;
	char *constexpr_flags, *dns, *dnsa;
	Entry *table;
	Py_ssize_t capacity;     /* a power of 2, or 0 */
	Py_ssize_t used;
	unsigned long generation;   /* changes whenever the table does */
	PyObject *weakrefs;
} DispatcherObject;

static void cache_clear(DispatcherObject *self)
{
	Entry *table = self->table;
	Py_ssize_t capacity = self->capacity;
	int nparts = self->nparams + 3;
	self->table = NULL;
	self->capacity = self->used = 0;
	self->generation++;
	for (Py_ssize_t i = 0; i < capacity; i++) {
		if (!table[i].kernel)
			continue;
		for (int j = 0; j < nparts; j++)
			Py_DECREF(table[i].parts[j]);
		free(table[i].parts);
		Py_DECREF(table[i].kernel);
	}
	free(table);
}

static int part_equal(PyObject *a, PyObject *b)
{
	if (a == b)
		return 1;
	if (Py_TYPE(a) != Py_TYPE(b))   /* 1 and True are different constexprs */
		return 0;
	if (PyLong_CheckExact(a) || PyUnicode_CheckExact(a) || PyFloat_CheckExact(a))
		return PyObject_RichCompareBool(a, b, Py_EQ);
	/* other values run Python code to compare, which may change the table: hold both */
	Py_INCREF(a);
	Py_INCREF(b);
	int eq = PyObject_RichCompareBool(a, b, Py_EQ);
	Py_DECREF(a);
	Py_DECREF(b);
	return eq;
}

/* The entry of key `parts` (hash h), or NULL: *err set on an error. */
static Entry *cache_find(DispatcherObject *self, PyObject *const *parts, Py_hash_t h, int *err)
{
	int nparts = self->nparams + 3;
	*err = 0;
restart:
	if (!self->capacity)
		return NULL;
	size_t mask = (size_t)self->capacity - 1;
	unsigned long generation = self->generation;
	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		Entry *e = &self->table[i];
		if (!e->kernel)
			return NULL;
		if (e->hash != h)
			continue;
		int eq = 1;
		for (int j = 0; j < nparts && eq == 1; j++) {
			eq = part_equal(e->parts[j], parts[j]);
			if (eq < 0) {
				*err = 1;
				return NULL;
			}
			if (self->generation != generation)   /* a comparison changed the table: e is gone */
				goto restart;
		}
		if (eq)
			return e;
	}
}

static int cache_insert(DispatcherObject *self, PyObject *const *parts, Py_hash_t h, PyObject *kernel)
{
	int nparts = self->nparams + 3;
	if ((self->used + 1) * 2 > self->capacity) {
		Py_ssize_t capacity = self->capacity ? self->capacity * 2 : 8;
		Entry *table = calloc((size_t)capacity, sizeof *table);
		if (!table) {
			PyErr_NoMemory();
			return -1;
		}
		for (Py_ssize_t i = 0; i < self->capacity; i++) {
			Entry *e = &self->table[i];
			if (!e->kernel)
				continue;
			size_t j = (size_t)e->hash & (size_t)(capacity - 1);
			while (table[j].kernel)
				j = (j + 1) & (size_t)(capacity - 1);
			table[j] = *e;
		}
		free(self->table);
		self->table = table;
		self->capacity = capacity;
	}
	PyObject **copy = malloc((size_t)nparts * sizeof *copy);
	if (!copy) {
		PyErr_NoMemory();
		return -1;
	}
	for (int j = 0; j < nparts; j++)
		copy[j] = Py_NewRef(parts[j]);
	size_t mask = (size_t)self->capacity - 1, i = (size_t)h & mask;
	while (self->table[i].kernel)
		i = (i + 1) & mask;
	self->table[i] = (Entry){.hash = h, .parts = copy, .kernel = Py_NewRef(kernel)};
	self->used++;
	self->generation++;
	return 0;
}

static PyObject *key_tuple(PyObject *const *parts, int nparts)
{
	PyObject *t = PyTuple_New(nparts);
	for (int j = 0; t && j < nparts; j++)
		PyTuple_SET_ITEM(t, j, Py_NewRef(parts[j]));
	return t;
}

static void dispatcher_dealloc(DispatcherObject *self)
{
	PyObject_GC_UnTrack(self);
	if (self->weakrefs)
		PyObject_ClearWeakRefs((PyObject *)self);
	Py_CLEAR(self->dict);
	Py_CLEAR(self->name);
	Py_CLEAR(self->params);
	Py_CLEAR(self->defaults);
	cache_clear(self);
	free(self->constexpr_flags);
	free(self->dns);
	free(self->dnsa);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int dispatcher_traverse(DispatcherObject *self, visitproc visit, void *arg)
{
	Py_VISIT(self->dict);
	Py_VISIT(self->defaults);
	int nparts = self->nparams + 3;
	for (Py_ssize_t i = 0; i < self->capacity; i++) {
		if (!self->table[i].kernel)
			continue;
		for (int j = 0; j < nparts; j++)
			Py_VISIT(self->table[i].parts[j]);
		Py_VISIT(self->table[i].kernel);
	}
	Py_VISIT(Py_TYPE(self));
	return 0;
}

static int dispatcher_clear(DispatcherObject *self)
{
	Py_CLEAR(self->dict);
	Py_CLEAR(self->defaults);
	cache_clear(self);
	return 0;
}

static char *flags_from(PyObject *seq, int n)
{
	char *f = calloc((size_t)n + 1, 1);
	for (int i = 0; i < n; i++) {
		int t = PyObject_IsTrue(PyTuple_GET_ITEM(seq, i));
		if (t < 0) {
			free(f);
			return NULL;
		}
		f[i] = (char)t;
	}
	return f;
}

/* _setup(name, params, constexpr_flags, do_not_specialize, do_not_specialize_on_alignment, defaults) */
static PyObject *dispatcher_setup(DispatcherObject *self, PyObject *args)
{
	PyObject *name, *params, *cf, *dns, *dnsa, *defaults;
	if (!PyArg_ParseTuple(args, "UO!O!O!O!O!", &name, &PyTuple_Type, &params, &PyTuple_Type, &cf, &PyTuple_Type,
			      &dns, &PyTuple_Type, &dnsa, &PyTuple_Type, &defaults))
		return NULL;
	int n = (int)PyTuple_GET_SIZE(params);
	if (PyTuple_GET_SIZE(cf) != n || PyTuple_GET_SIZE(dns) != n || PyTuple_GET_SIZE(dnsa) != n ||
	    PyTuple_GET_SIZE(defaults) != n) {
		PyErr_SetString(PyExc_ValueError, "_setup: tuples of different lengths");
		return NULL;
	}
	for (int i = 0; i < n; i++)
		if (!PyUnicode_Check(PyTuple_GET_ITEM(params, i))) {
			PyErr_SetString(PyExc_TypeError, "_setup: parameter names must be str");
			return NULL;
		}
	char *f_cf = flags_from(cf, n), *f_dns = flags_from(dns, n), *f_dnsa = flags_from(dnsa, n);
	if (!f_cf || !f_dns || !f_dnsa) {
		free(f_cf);
		free(f_dns);
		free(f_dnsa);
		return NULL;
	}
	cache_clear(self);   /* its keys have the old parameter count */
	free(self->constexpr_flags);
	free(self->dns);
	free(self->dnsa);
	self->constexpr_flags = f_cf;
	self->dns = f_dns;
	self->dnsa = f_dnsa;
	Py_XSETREF(self->name, Py_NewRef(name));
	Py_XSETREF(self->params, Py_NewRef(params));
	Py_XSETREF(self->defaults, Py_NewRef(defaults));
	self->nparams = n;
	Py_RETURN_NONE;
}

static int grid_dim(PyObject *item, Py_ssize_t i, PyObject *name, int *out)
{
	long long v = PyLong_AsLongLong(item);
	if (v == -1 && PyErr_Occurred()) {
		PyErr_Clear();
		PyErr_Format(PyExc_TypeError, "kernel '%U': grid dimension %zd is %.100s, not an int", name, i,
			     Py_TYPE(item)->tp_name);
		return -1;
	}
	if (v < 0 || v > INT32_MAX) {
		PyErr_Format(PyExc_ValueError, "kernel '%U': grid dimension %zd is %lld", name, i, v);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int grid_from(PyObject *g, int grid[3], PyObject *name)
{
	grid[0] = grid[1] = grid[2] = 1;
	if (PyLong_Check(g))
		return grid_dim(g, 0, name, &grid[0]);
	PyObject *seq = PyTuple_CheckExact(g) ? Py_NewRef(g)
			: PySequence_Fast(g, "the grid must be a tuple of 1 to 3 ints or a function returning one");
	if (!seq)
		return -1;
	Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
	int rc = 0;
	if (n < 1 || n > 3) {
		PyErr_Format(PyExc_ValueError, "kernel '%U': the grid has %zd dimensions (1 to 3 are allowed)", name, n);
		rc = -1;
	}
	for (Py_ssize_t i = 0; rc == 0 && i < n; i++)
		rc = grid_dim(PySequence_Fast_GET_ITEM(seq, i), i, name, &grid[i]);
	Py_DECREF(seq);
	return rc;
}

static int is_ignored_option(PyObject *key)
{
	static const char *const names[] = {"num_ctas", "maxnreg", "enable_fp_fusion", "debug", "launch_cooperative_grid",
					    "launch_pdl", "sanitize_overflow", "arch", "extern_libs", "enable_reflect_ftz",
					    "matrix_instr_nonkdim", "waves_per_eu", "kpack", "warmup", NULL};
	for (int i = 0; names[i]; i++)
		if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0)
			return 1;
	return 0;
}

/* The device's current stream, from the registered getter: a callable, or
 * (device function, stream function of a device) as torch has them. */
static PyObject *stream_init;   /* called once, at the first CUDA dispatch, before its key is made: sets the getter */

static int getter_has_device(void)
{
	return stream_getter && PyTuple_Check(stream_getter) && PyTuple_GET_SIZE(stream_getter) == 2;
}

/* The current CUDA device (torch's), as the getter's device function gives
 * it: a new reference, NULL with an exception set. */
static PyObject *current_device(void)
{
	PyObject *dev = PyObject_CallNoArgs(PyTuple_GET_ITEM(stream_getter, 0));
	if (dev && !PyLong_Check(dev)) {
		PyErr_Format(PyExc_TypeError, "the current CUDA device is %.100s, not an int", Py_TYPE(dev)->tp_name);
		Py_CLEAR(dev);
	}
	return dev;
}

#define CUDA_DEVICE_NAMES 64
static PyObject *cuda_device_names[CUDA_DEVICE_NAMES];   /* "cuda:0" ...: the key's device part, made once */

/* The key's device part for CUDA device `dev` (borrowed), NULL with an exception set. */
static PyObject *cuda_device_name(PyObject *dev)
{
	long i = PyLong_AsLong(dev);
	if (i == -1 && PyErr_Occurred())
		return NULL;
	if (i < 0 || i >= CUDA_DEVICE_NAMES) {
		PyErr_Format(PyExc_ValueError, "CUDA device %ld: tritonc takes devices 0 to %d", i, CUDA_DEVICE_NAMES - 1);
		return NULL;
	}
	if (!cuda_device_names[i])
		cuda_device_names[i] = PyUnicode_FromFormat("cuda:%ld", i);
	return cuda_device_names[i];
}

/* The current stream: of device `dev` where the getter takes a device
 * (NULL: the getter's current device), else the getter's only function. */
static int current_stream_of(PyObject *dev, void **stream)
{
	*stream = NULL;
	if (!stream_getter || stream_getter == Py_None)
		return 0;
	PyObject *s;
	if (getter_has_device()) {
		PyObject *own = dev ? NULL : current_device();
		if (!dev && !own)
			return -1;
		s = PyObject_CallOneArg(PyTuple_GET_ITEM(stream_getter, 1), dev ? dev : own);
		Py_XDECREF(own);
	} else {
		s = PyObject_CallNoArgs(stream_getter);
	}
	if (!s)
		return -1;
	*stream = PyLong_AsVoidPtr(s);
	Py_DECREF(s);
	return PyErr_Occurred() ? -1 : 0;
}

typedef union Slot {
	int8_t i8;
	int16_t i16;
	int32_t i32;
	int64_t i64;
	float f32;
	double f64;
	void *ptr;
} Slot;

/* The last no-op launch, for _last_launch(): its grid, stream and packed arguments. */
static struct {
	int grid[3];
	void *stream;
	int cuda, nargs;
	Pack pack[ARGS_ON_STACK];
	Slot slots[ARGS_ON_STACK];
} dry_last;

static void dry_record(const KernelObject *ko, const int grid[3], const Slot *slots, void *stream)
{
	memcpy(dry_last.grid, grid, sizeof dry_last.grid);
	dry_last.stream = stream;
	dry_last.cuda = ko->cuda;
	dry_last.nargs = ko->nargs < ARGS_ON_STACK ? ko->nargs : ARGS_ON_STACK;
	memcpy(dry_last.pack, ko->pack, (size_t)dry_last.nargs * sizeof *ko->pack);
	memcpy(dry_last.slots, slots, (size_t)dry_last.nargs * sizeof *slots);
}

static int same_name(PyObject *a, PyObject *b)
{
	return a == b || PyUnicode_Compare(a, b) == 0;
}

/* The keyword options that are not parameters, as a dict (new reference). */
static PyObject *extra_dict(PyObject *const *keys, PyObject *const *values, int n)
{
	PyObject *d = PyDict_New();
	for (int i = 0; d && i < n; i++)
		if (PyDict_SetItem(d, keys[i], values[i]) < 0)
			Py_CLEAR(d);
	return d;
}

/* Rewrites the pending exception's message as "kernel 'K', argument 'A': message". */
static void name_argument(DispatcherObject *self, int i)
{
	PyObject *type, *value, *tb;
	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	PyObject *msg = PyUnicode_FromFormat("kernel '%U', argument '%U': %S", self->name, PyTuple_GET_ITEM(self->params, i),
					     value ? value : Py_None);
	if (msg)
		PyErr_SetObject(type, msg);
	Py_XDECREF(msg);
	Py_XDECREF(type);
	Py_XDECREF(value);
	Py_XDECREF(tb);
}

/* Binds the call's arguments, finds or compiles the kernel, and launches it when `launch`.
 * Returns the Kernel (new reference), None where the Python layer ran it, or NULL. */
static PyObject *dispatch(DispatcherObject *self, PyObject *grid_obj, PyObject *const *args, Py_ssize_t npos,
			  PyObject *kwnames, PyObject *const *kwvalues, PyObject *kwdict, int launch)
{
	int n = self->nparams;
	if (!self->params) {
		PyErr_SetString(PyExc_RuntimeError, "the kernel is not set up");
		return NULL;
	}
	PyObject *stack_vals[ARGS_ON_STACK], *stack_parts[ARGS_ON_STACK + 3], *stack_owned[ARGS_ON_STACK];
	Arg stack_info[ARGS_ON_STACK];
	int big = n > ARGS_ON_STACK;
	PyObject **vals = big ? calloc((size_t)n, sizeof *vals) : stack_vals;
	PyObject **parts = big ? calloc((size_t)n + 3, sizeof *parts) : stack_parts;
	PyObject **owned = big ? calloc((size_t)n, sizeof *owned) : stack_owned;   /* constexpr values unwrapped */
	Arg *info = big ? calloc((size_t)n, sizeof *info) : stack_info;
	PyObject *extra_keys[EXTRA_ON_STACK], *extra_values[EXTRA_ON_STACK];
	int nextra = 0, nowned = 0, nclassified = 0;
	PyObject *result = NULL, *kernel = NULL, *extra = NULL;
	int num_warps = 4, num_stages = 3;
	PyObject *warps_obj = NULL, *stages_obj = NULL;
	PyObject *cuda_dev = NULL;   /* the current CUDA device, where the stream getter knows devices */
	if (!vals || !parts || !owned || !info) {
		PyErr_NoMemory();
		goto done;
	}
	for (int i = 0; i < n; i++)
		vals[i] = NULL;
	if (npos > n) {
		PyErr_Format(PyExc_TypeError, "kernel '%U' takes %d arguments but %zd were given", self->name, n, npos);
		goto done;
	}
	for (Py_ssize_t i = 0; i < npos; i++)
		vals[i] = args[i];
	Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : kwdict ? PyDict_GET_SIZE(kwdict) : 0;
	Py_ssize_t pos = 0;
	for (Py_ssize_t j = 0; j < nkw; j++) {
		PyObject *k, *v;
		if (kwnames) {
			k = PyTuple_GET_ITEM(kwnames, j);
			v = kwvalues[j];
		} else if (!PyDict_Next(kwdict, &pos, &k, &v)) {
			break;
		}
		if (!PyUnicode_Check(k)) {
			PyErr_Format(PyExc_TypeError, "kernel '%U': keywords must be strings", self->name);
			goto done;
		}
		int found = -1;
		for (int i = 0; i < n && found < 0; i++)   /* the names are interned: identity first */
			if (PyTuple_GET_ITEM(self->params, i) == k)
				found = i;
		for (int i = 0; i < n && found < 0; i++)
			if (PyUnicode_Compare(PyTuple_GET_ITEM(self->params, i), k) == 0)
				found = i;
		if (found >= 0) {
			if (vals[found]) {
				PyErr_Format(PyExc_TypeError, "kernel '%U' got multiple values for argument '%U'", self->name, k);
				goto done;
			}
			vals[found] = v;
			continue;
		}
		if (same_name(k, s_num_warps))
			warps_obj = v;
		else if (same_name(k, s_num_stages))
			stages_obj = v;
		else if (!is_ignored_option(k)) {
			PyErr_Format(PyExc_TypeError, "kernel '%U' got an unexpected keyword argument '%U'", self->name, k);
			goto done;
		}
		if (nextra == EXTRA_ON_STACK) {
			PyErr_Format(PyExc_TypeError, "kernel '%U': more than %d launch options", self->name, EXTRA_ON_STACK);
			goto done;
		}
		extra_keys[nextra] = k;
		extra_values[nextra++] = v;
	}
	if (warps_obj && warps_obj != Py_None) {
		num_warps = (int)PyLong_AsLong(warps_obj);
		if (PyErr_Occurred() || num_warps < 1 || num_warps > 32 || (num_warps & (num_warps - 1))) {
			PyErr_Clear();
			PyErr_Format(PyExc_ValueError, "kernel '%U': num_warps must be a power of 2 from 1 to 32 (got %R)",
				     self->name, warps_obj);
			goto done;
		}
	}
	if (stages_obj && stages_obj != Py_None) {
		num_stages = (int)PyLong_AsLong(stages_obj);
		if (PyErr_Occurred() || num_stages < 1 || num_stages > 16) {
			PyErr_Clear();
			PyErr_Format(PyExc_ValueError, "kernel '%U': num_stages must be from 1 to 16 (got %R)", self->name,
				     stages_obj);
			goto done;
		}
	}
	for (int i = 0; i < n; i++) {
		if (vals[i])
			continue;
		PyObject *d = PyTuple_GET_ITEM(self->defaults, i);
		if (d == no_default) {
			PyErr_Format(PyExc_TypeError, "kernel '%U' is missing argument '%U'", self->name,
				     PyTuple_GET_ITEM(self->params, i));
			goto done;
		}
		vals[i] = d;
	}
	/* the key: device, warps, stages, then each parameter's part; its hash as it is built */
	int device = DEV_NONE, device_param = -1;
	Py_uhash_t h = 0x345678u;
	for (int i = 0; i < n; i++) {
		PyObject *part;
		if (self->constexpr_flags[i]) {
			part = vals[i];
			if (constexpr_type && !PyLong_CheckExact(part) && PyObject_TypeCheck(part, (PyTypeObject *)constexpr_type)) {
				part = PyObject_GetAttr(part, s_value);
				if (!part)
					goto done;
				owned[nowned++] = part;
			}
			info[i].has_view = 0;
			info[i].keep = NULL;
			nclassified = i + 1;
		} else {
			int rc = classify(&info[i], vals[i], !self->dns[i], !self->dnsa[i]);
			nclassified = i + 1;
			if (rc < 0) {
				name_argument(self, i);
				goto done;
			}
			if (info[i].device) {
				if (device && info[i].device != device) {
					PyErr_Format(PyExc_ValueError,
						     "kernel '%U': argument '%U' is in %s memory but argument '%U' is in %s memory",
						     self->name, PyTuple_GET_ITEM(self->params, i),
						     info[i].device == DEV_CUDA ? "CUDA" : "CPU",
						     PyTuple_GET_ITEM(self->params, device_param), device == DEV_CUDA ? "CUDA" : "CPU");
					goto done;
				}
				device = info[i].device;
				device_param = i;
			}
			part = info[i].key;
		}
		Py_hash_t ph = PyObject_Hash(part);
		if (ph == -1) {
			PyErr_Clear();
			PyErr_Format(PyExc_TypeError, "kernel '%U': constexpr '%U' is %.100s, which cannot be a key", self->name,
				     PyTuple_GET_ITEM(self->params, i), Py_TYPE(part)->tp_name);
			goto done;
		}
		parts[i + 3] = part;
		h = (h ^ (Py_uhash_t)ph) * 1000003u;
	}
	parts[0] = device == DEV_CUDA ? s_cuda : device == DEV_CPU ? s_cpu : Py_None;
	if (device == DEV_CUDA && stream_init) {   /* the first CUDA launch: the Python layer picks the stream getter */
		PyObject *init = stream_init, *r;
		stream_init = NULL;
		r = PyObject_CallNoArgs(init);
		Py_DECREF(init);
		if (!r)
			goto done;
		Py_DECREF(r);
	}
	if (device == DEV_CUDA && getter_has_device()) {   /* one kernel a device, as Triton: the current one's */
		if (!(cuda_dev = current_device()) || !(parts[0] = cuda_device_name(cuda_dev)))
			goto done;
	}
	parts[1] = small_ints[num_warps];
	parts[2] = small_ints[num_stages];
	h = (h ^ (Py_uhash_t)PyObject_Hash(parts[0])) * 1000003u;
	h = (h ^ (Py_uhash_t)num_warps * 31u ^ (Py_uhash_t)num_stages) * 1000003u;
	h ^= h >> 29;
	int err;
	Entry *e = cache_find(self, parts, (Py_hash_t)h, &err);
	if (err)
		goto done;
	if (e) {
		kernel = Py_NewRef(e->kernel);
	} else {
		PyObject *key = key_tuple(parts, n + 3);
		PyObject *tuple = key ? PyTuple_New(n) : NULL;
		for (int i = 0; tuple && i < n; i++)
			PyTuple_SET_ITEM(tuple, i, Py_NewRef(vals[i]));
		if (tuple && nextra && !(extra = extra_dict(extra_keys, extra_values, nextra)))
			Py_CLEAR(tuple);
		if (tuple)
			kernel = PyObject_CallMethodObjArgs((PyObject *)self, s_miss, key, tuple, extra ? extra : Py_None, NULL);
		Py_XDECREF(key);
		Py_XDECREF(tuple);
		if (!kernel)
			goto done;
		if (kernel == Py_None) {   /* the Python layer ran it another way (TRITONC_TARGET=c on CUDA memory) */
			result = kernel;
			kernel = NULL;
			goto done;
		}
		if (!PyObject_TypeCheck(kernel, &KernelType)) {
			PyErr_SetString(PyExc_TypeError, "_miss must return a Kernel");
			goto done;
		}
		if (!cache_find(self, parts, (Py_hash_t)h, &err) && (err || cache_insert(self, parts, (Py_hash_t)h, kernel) < 0))
			goto done;
	}
	if (!launch) {
		result = kernel;
		kernel = NULL;
		goto done;
	}
	/* the grid */
	int grid[3];
	if (PyTuple_CheckExact(grid_obj) || PyLong_Check(grid_obj) || !PyCallable_Check(grid_obj)) {
		if (grid_from(grid_obj, grid, self->name) < 0)
			goto done;
	} else {
		PyObject *meta = PyDict_New();
		for (int i = 0; meta && i < n; i++)
			if (PyDict_SetItem(meta, PyTuple_GET_ITEM(self->params, i), vals[i]) < 0)
				Py_CLEAR(meta);
		for (int i = 0; meta && i < nextra; i++)
			if (PyDict_SetItem(meta, extra_keys[i], extra_values[i]) < 0)
				Py_CLEAR(meta);
		if (meta && !warps_obj && PyDict_SetItem(meta, s_num_warps, small_ints[num_warps]) < 0)
			Py_CLEAR(meta);
		if (meta && !stages_obj && PyDict_SetItem(meta, s_num_stages, small_ints[num_stages]) < 0)
			Py_CLEAR(meta);
		if (!meta)
			goto done;
		PyObject *g = PyObject_CallOneArg(grid_obj, meta);
		Py_DECREF(meta);
		if (!g)
			goto done;
		int rc = grid_from(g, grid, self->name);
		Py_DECREF(g);
		if (rc < 0)
			goto done;
	}
	KernelObject *ko = (KernelObject *)kernel;
	Slot stack_slots[ARGS_ON_STACK];
	void *stack_ptrs[ARGS_ON_STACK];
	Slot *slots = ko->nargs <= ARGS_ON_STACK ? stack_slots : calloc((size_t)ko->nargs, sizeof *slots);
	void **ptrs = ko->nargs <= ARGS_ON_STACK ? stack_ptrs : calloc((size_t)ko->nargs, sizeof *ptrs);
	int bad = !slots || !ptrs;
	for (int j = 0; j < ko->nargs && !bad; j++) {
		const Arg *a = &info[ko->param[j]];
		Slot *s = &slots[j];
		switch (ko->pack[j]) {
		case PK_PTR:
			if (!a->is_ptr)
				bad = 1;
			s->ptr = (void *)(intptr_t)a->i;
			break;
		case PK_I8: s->i8 = (int8_t)a->i; break;
		case PK_I16: s->i16 = (int16_t)a->i; break;
		case PK_I32: s->i32 = (int32_t)a->i; break;
		case PK_I64: s->i64 = a->i; break;
		case PK_F32: s->f32 = (float)a->f; break;
		case PK_F64: s->f64 = a->f; break;
		}
		ptrs[j] = s;
	}
	int rc = -1;
	if (bad) {
		PyErr_SetString(PyExc_TypeError, "argument kinds changed under a cached kernel");
	} else if (dry_run) {
		void *stream = NULL;
		if (!ko->cuda || current_stream_of(cuda_dev, &stream) == 0) {
			dry_launches++;
			dry_record(ko, grid, slots, stream);
			rc = 0;
		}
	} else if (ko->cuda) {
		void *stream = NULL;
		if (current_stream_of(cuda_dev, &stream) == 0 && (rc = tritonc_launch(ko->k, grid, stream, ptrs)) != 0)
			PyErr_Format(PyExc_RuntimeError, "kernel '%U': %s", self->name, tritonc_kernel_error(ko->k));
	} else {
		Py_BEGIN_ALLOW_THREADS
		rc = tritonc_launch(ko->k, grid, NULL, ptrs);
		Py_END_ALLOW_THREADS
		if (rc != 0)
			PyErr_Format(PyExc_RuntimeError, "kernel '%U': %s", self->name, tritonc_kernel_error(ko->k));
	}
	if (slots != stack_slots)
		free(slots);
	if (ptrs != stack_ptrs)
		free(ptrs);
	if (rc == 0) {
		result = kernel;
		kernel = NULL;
	}
done:
	for (int i = 0; i < nclassified; i++)
		arg_release(&info[i]);
	for (int i = 0; i < nowned; i++)
		Py_DECREF(owned[i]);
	Py_XDECREF(kernel);
	Py_XDECREF(extra);
	Py_XDECREF(cuda_dev);
	if (big) {
		free(vals);
		free(parts);
		free(owned);
		free(info);
	}
	return result;
}

/* _dispatch(grid, args, kwargs, launch) -> Kernel (or None when the Python layer ran it) */
static PyObject *dispatcher_py_dispatch(DispatcherObject *self, PyObject *args)
{
	PyObject *grid, *pos, *kw;
	int launch;
	if (!PyArg_ParseTuple(args, "OO!O!p", &grid, &PyTuple_Type, &pos, &PyDict_Type, &kw, &launch))
		return NULL;
	return dispatch(self, grid, &PyTuple_GET_ITEM(pos, 0), PyTuple_GET_SIZE(pos), NULL, NULL, kw, launch);
}

/* _kernels: key tuple -> Kernel, a new dict each time. The pairs are taken
 * first: filling the dict compares keys, which may run Python code that
 * changes the table. */
static PyObject *dispatcher_get_cache(DispatcherObject *self, void *closure)
{
	PyObject *pairs = PyList_New(0);
	for (Py_ssize_t i = 0; pairs && i < self->capacity; i++) {
		Entry *e = &self->table[i];
		if (!e->kernel)
			continue;
		PyObject *key = key_tuple(e->parts, self->nparams + 3);
		PyObject *pair = key ? PyTuple_Pack(2, key, e->kernel) : NULL;
		if (!pair || PyList_Append(pairs, pair) < 0)
			Py_CLEAR(pairs);
		Py_XDECREF(key);
		Py_XDECREF(pair);
	}
	PyObject *d = pairs ? PyDict_New() : NULL;
	for (Py_ssize_t i = 0; d && i < PyList_GET_SIZE(pairs); i++) {
		PyObject *pair = PyList_GET_ITEM(pairs, i);
		if (PyDict_SetItem(d, PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1)) < 0)
			Py_CLEAR(d);
	}
	Py_XDECREF(pairs);
	return d;
}

static PyObject *dispatcher_forget(DispatcherObject *self, PyObject *unused)
{
	cache_clear(self);
	Py_RETURN_NONE;
}

/* kernel[grid]: a launcher bound to the grid. Launchers are made for one
 * call and dropped, so a few freed ones are kept for the next. */
typedef struct {
	PyObject_HEAD
	DispatcherObject *d;
	PyObject *grid;
	vectorcallfunc vectorcall;
} LauncherObject;

static PyTypeObject LauncherType;

#define LAUNCHERS_KEPT 8
static LauncherObject *free_launchers[LAUNCHERS_KEPT];
static int n_free_launchers;

static PyObject *launcher_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
	LauncherObject *l = (LauncherObject *)self;
	Py_ssize_t npos = PyVectorcall_NARGS(nargsf);
	return dispatch(l->d, l->grid, args, npos, kwnames, kwnames ? args + npos : NULL, NULL, 1);
}

static void launcher_dealloc(LauncherObject *self)
{
	Py_CLEAR(self->d);
	Py_CLEAR(self->grid);
	if (Py_IS_TYPE(self, &LauncherType) && n_free_launchers < LAUNCHERS_KEPT) {
		free_launchers[n_free_launchers++] = self;
		return;
	}
	PyObject_Free(self);
}

static PyTypeObject LauncherType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "tritonc._tritonc.Launcher",
	.tp_basicsize = sizeof(LauncherObject),
	.tp_dealloc = (destructor)launcher_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
	.tp_call = PyVectorcall_Call,
	.tp_vectorcall_offset = offsetof(LauncherObject, vectorcall),
	.tp_doc = "kernel[grid]: call it with the kernel's arguments",
};

static PyObject *dispatcher_subscript(DispatcherObject *self, PyObject *grid)
{
	LauncherObject *l;
	if (n_free_launchers) {
		l = free_launchers[--n_free_launchers];
		(void)PyObject_Init((PyObject *)l, &LauncherType);
	} else {
		l = PyObject_New(LauncherObject, &LauncherType);
		if (!l)
			return NULL;
	}
	l->d = (DispatcherObject *)Py_NewRef(self);
	l->grid = Py_NewRef(grid);
	l->vectorcall = launcher_vectorcall;
	return (PyObject *)l;
}

static PyMappingMethods dispatcher_mapping = {.mp_subscript = (binaryfunc)dispatcher_subscript};

static PyMethodDef dispatcher_methods[] = {
	{"_setup", (PyCFunction)dispatcher_setup, METH_VARARGS, "binds the parameter table"},
	{"_dispatch", (PyCFunction)dispatcher_py_dispatch, METH_VARARGS, "_dispatch(grid, args, kwargs, launch)"},
	{"_forget", (PyCFunction)dispatcher_forget, METH_NOARGS, "drops every compiled kernel from the memory cache"},
	{NULL},
};

static PyGetSetDef dispatcher_getset[] = {
	{"_kernels", (getter)dispatcher_get_cache, NULL, "key -> compiled kernel", NULL},
	{"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
	{NULL},
};

static PyTypeObject DispatcherType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "tritonc._tritonc.Dispatcher",
	.tp_basicsize = sizeof(DispatcherObject),
	.tp_dealloc = (destructor)dispatcher_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
	.tp_traverse = (traverseproc)dispatcher_traverse,
	.tp_clear = (inquiry)dispatcher_clear,
	.tp_as_mapping = &dispatcher_mapping,
	.tp_methods = dispatcher_methods,
	.tp_getset = dispatcher_getset,
	.tp_dictoffset = offsetof(DispatcherObject, dict),
	.tp_weaklistoffset = offsetof(DispatcherObject, weakrefs),
	.tp_new = PyType_GenericNew,
	.tp_doc = "the launch path of a jitted kernel",
};

/* _launch_floor(kernel, grid, stream, values, n) -> ns a launch: n launches of
 * a loaded kernel from C with packed arguments (values: one int or float per
 * argument, pointers as ints), the cost below the Python launch path. */
static PyObject *py_launch_floor(PyObject *self, PyObject *args)
{
	PyObject *kobj, *gobj, *values;
	unsigned long long stream;
	int n;
	if (!PyArg_ParseTuple(args, "O!OKO!i", &KernelType, &kobj, &gobj, &stream, &PyTuple_Type, &values, &n))
		return NULL;
	KernelObject *ko = (KernelObject *)kobj;
	int grid[3];
	if (grid_from(gobj, grid, s_cuda) < 0)
		return NULL;
	if (PyTuple_GET_SIZE(values) != ko->nargs || ko->nargs > ARGS_ON_STACK) {
		PyErr_SetString(PyExc_ValueError, "_launch_floor: one value an argument");
		return NULL;
	}
	Slot slots[ARGS_ON_STACK];
	void *ptrs[ARGS_ON_STACK];
	for (int j = 0; j < ko->nargs; j++) {
		PyObject *v = PyTuple_GET_ITEM(values, j);
		switch (ko->pack[j]) {
		case PK_PTR: slots[j].ptr = (void *)(uintptr_t)PyLong_AsUnsignedLongLongMask(v); break;
		case PK_I8: slots[j].i8 = (int8_t)PyLong_AsLong(v); break;
		case PK_I16: slots[j].i16 = (int16_t)PyLong_AsLong(v); break;
		case PK_I32: slots[j].i32 = (int32_t)PyLong_AsLong(v); break;
		case PK_I64: slots[j].i64 = PyLong_AsLongLong(v); break;
		case PK_F32: slots[j].f32 = (float)PyFloat_AsDouble(v); break;
		case PK_F64: slots[j].f64 = PyFloat_AsDouble(v); break;
		}
		ptrs[j] = &slots[j];
	}
	if (PyErr_Occurred())
		return NULL;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < n; i++)
		if (tritonc_launch(ko->k, grid, (void *)(uintptr_t)stream, ptrs) != 0) {
			PyErr_SetString(PyExc_RuntimeError, tritonc_kernel_error(ko->k));
			return NULL;
		}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (n > 0 ? n : 1);
	return PyFloat_FromDouble(ns);
}

/* _time_calls(callable, args, kwargs, n) -> ns a call, called from C (no Python loop around it) */
static PyObject *py_time_calls(PyObject *self, PyObject *args)
{
	PyObject *fn, *fargs, *fkw;
	int n;
	if (!PyArg_ParseTuple(args, "OO!O!i", &fn, &PyTuple_Type, &fargs, &PyDict_Type, &fkw, &n))
		return NULL;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < n; i++) {
		PyObject *r = PyObject_Call(fn, fargs, PyDict_GET_SIZE(fkw) ? fkw : NULL);
		if (!r)
			return NULL;
		Py_DECREF(r);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (n > 0 ? n : 1);
	return PyFloat_FromDouble(ns);
}

/* _dry_run(mode) -> the no-op launches so far: 0 launches for real, 1 makes
 * every launch a no-op, 2 also takes every pointer as CUDA memory (the CUDA
 * path without a GPU: kernels compiled to CUDA source, not loaded). For
 * tests and for measuring the launch path alone. */
static PyObject *py_dry_run(PyObject *self, PyObject *args)
{
	int mode = -1;
	if (!PyArg_ParseTuple(args, "|i", &mode))
		return NULL;
	if (mode < -1 || mode > 2) {
		PyErr_SetString(PyExc_ValueError, "_dry_run: mode 0, 1 or 2");
		return NULL;
	}
	if (mode >= 0)
		dry_run = mode;
	return PyLong_FromUnsignedLongLong(dry_launches);
}

/* _last_launch() -> (grid, stream, device, values): the last no-op launch's
 * packed arguments as the kernel receives them (pointers as ints). */
static PyObject *py_last_launch(PyObject *self, PyObject *unused)
{
	PyObject *values = PyTuple_New(dry_last.nargs);
	for (int j = 0; values && j < dry_last.nargs; j++) {
		const Slot *sl = &dry_last.slots[j];
		PyObject *v = NULL;
		switch (dry_last.pack[j]) {
		case PK_PTR: v = PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)sl->ptr); break;
		case PK_I8: v = PyLong_FromLong(sl->i8); break;
		case PK_I16: v = PyLong_FromLong(sl->i16); break;
		case PK_I32: v = PyLong_FromLong(sl->i32); break;
		case PK_I64: v = PyLong_FromLongLong(sl->i64); break;
		case PK_F32: v = PyFloat_FromDouble(sl->f32); break;
		case PK_F64: v = PyFloat_FromDouble(sl->f64); break;
		}
		if (!v) {
			Py_CLEAR(values);
			break;
		}
		PyTuple_SET_ITEM(values, j, v);
	}
	if (!values)
		return NULL;
	return Py_BuildValue("(iii)KsN", dry_last.grid[0], dry_last.grid[1], dry_last.grid[2],
			     (unsigned long long)(uintptr_t)dry_last.stream, dry_last.cuda ? "cuda" : "cpu", values);
}

/* _nvrtc(code, arch) -> (seconds, processor seconds, ptx bytes, cubin bytes):
 * CUDA C through NVRTC with the options the loader uses, no driver or device
 * needed (for measuring what NVRTC costs a kernel on a machine without a
 * GPU; the processor time is this thread's, NVRTC's work on a loaded
 * machine). */
static PyObject *py_nvrtc(PyObject *self, PyObject *args)
{
	const char *code, *arch;
	if (!PyArg_ParseTuple(args, "ss", &code, &arch))
		return NULL;
	CudaImages im;
	char err[2048];
	struct timespec t0, t1, c0, c1;
	bool ok;
	Py_BEGIN_ALLOW_THREADS
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	ok = cuda_nvrtc_images(code, arch, &im, err, sizeof err);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	Py_END_ALLOW_THREADS
	if (!ok) {
		PyErr_SetString(CompileError, err);
		return NULL;
	}
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
	PyObject *r = Py_BuildValue("(ddnn)", s, cpu, (Py_ssize_t)im.ptx_len, (Py_ssize_t)im.cubin_len);
	cuda_images_free(&im);
	return r;
}

/* ---- module ---- */

/* configure(dtype_names, dtype_resolver, stream_getter, constexpr_type, no_default) */
static PyObject *py_configure(PyObject *self, PyObject *args)
{
	PyObject *names, *resolver, *stream, *cexpr, *nodef;
	if (!PyArg_ParseTuple(args, "O!OOOO", &PyDict_Type, &names, &resolver, &stream, &cexpr, &nodef))
		return NULL;
	Py_XSETREF(dtype_names, Py_NewRef(names));
	PyDict_Clear(dtype_pairs);
	Py_XSETREF(dtype_resolver, Py_NewRef(resolver));
	Py_XSETREF(stream_getter, Py_NewRef(stream));
	Py_XSETREF(constexpr_type, cexpr == Py_None ? NULL : Py_NewRef(cexpr));
	Py_XSETREF(no_default, Py_NewRef(nodef));
	Py_RETURN_NONE;
}

/* set_stream_getter(callable or None) */
static PyObject *py_set_stream_getter(PyObject *self, PyObject *getter)
{
	Py_XSETREF(stream_getter, Py_NewRef(getter));
	Py_RETURN_NONE;
}

/* set_stream_init(callable or None): called once at the first dispatch on CUDA memory, before its key
 * (which names the current device where the stream getter knows devices) is made */
static PyObject *py_set_stream_init(PyObject *self, PyObject *init)
{
	Py_XSETREF(stream_init, init == Py_None ? NULL : Py_NewRef(init));
	Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
	{"compile", py_compile, METH_VARARGS,
	 "compile(source, filename, name, signature, defines, num_warps, num_stages, target) -> dict"},
	{"load", py_load, METH_VARARGS,
	 "load(code, target, name, threads, shared, run_width, cpu_threads, cache_dir, arg_types, arg_params) -> Kernel"},
	{"configure", py_configure, METH_VARARGS, "configure(dtype_names, resolver, stream_getter, constexpr, no_default)"},
	{"set_stream_getter", py_set_stream_getter, METH_O,
	 "the current CUDA stream: a function, or (device function, stream function of a device)"},
	{"set_stream_init", py_set_stream_init, METH_O,
	 "set_stream_init(callable or None): called once, at the first dispatch on CUDA memory"},
	{"_launch_floor", py_launch_floor, METH_VARARGS, "_launch_floor(kernel, grid, stream, values, n) -> ns a launch"},
	{"_dry_run", py_dry_run, METH_VARARGS, "_dry_run([mode]) -> no-op launches so far (0: off, 1: no-op launches, "
	 "2: also every pointer in CUDA memory)"},
	{"_last_launch", py_last_launch, METH_NOARGS, "_last_launch() -> (grid, stream, device, packed values) of the "
	 "last no-op launch"},
	{"_nvrtc", py_nvrtc, METH_VARARGS, "_nvrtc(code, arch) -> (seconds, processor seconds, ptx bytes, cubin bytes): NVRTC alone"},
	{"_time_calls", py_time_calls, METH_VARARGS, "_time_calls(callable, args, kwargs, n) -> ns a call"},
	{NULL},
};

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT, "tritonc._tritonc", "tritonc's launch path and compiler, in C", -1, module_methods,
};

static PyObject *intern(const char *s)
{
	return PyUnicode_InternFromString(s);
}

PyMODINIT_FUNC PyInit__tritonc(void)
{
	if (PyType_Ready(&KernelType) < 0 || PyType_Ready(&DispatcherType) < 0 || PyType_Ready(&LauncherType) < 0)
		return NULL;
	PyObject *m = PyModule_Create(&module_def);
	if (!m)
		return NULL;
	s_key_none = intern("None");
	s_key_one = intern("1");
	s_i1 = intern("i1");
	s_i32 = intern("i32");
	s_i32_16 = intern("i32:16");
	s_i64 = intern("i64");
	s_i64_16 = intern("i64:16");
	s_u64 = intern("u64");
	s_u64_16 = intern("u64:16");
	s_fp32 = intern("fp32");
	s_data_ptr = intern("data_ptr");
	s_dtype = intern("dtype");
	s_is_cuda = intern("is_cuda");
	s_device = intern("device");
	s_type = intern("type");
	s_value = intern("value");
	s_cai = intern("__cuda_array_interface__");
	s_dlpack = intern("__dlpack__");
	s_data = intern("data");
	s_typestr = intern("typestr");
	s_miss = intern("_miss");
	s_num_warps = intern("num_warps");
	s_num_stages = intern("num_stages");
	s_cpu = intern("cpu");
	s_cuda = intern("cuda");
	dtype_names = PyDict_New();
	key_pairs = PyDict_New();
	dtype_pairs = PyDict_New();
	for (int i = 0; i <= 32; i++)
		small_ints[i] = PyLong_FromLong(i);
	for (int i = 0; i < EL_COUNT; i++) {
		PyObject *name = intern(known_names[i]);
		known_pairs[i] = name ? pair_of_name(name) : NULL;
		Py_XDECREF(name);
		if (!known_pairs[i])
			return NULL;
	}
	no_default = Py_NewRef(Py_None);
	CompileError = PyErr_NewException("tritonc.CompilationError", PyExc_RuntimeError, NULL);
	Py_INCREF(&KernelType);
	Py_INCREF(&DispatcherType);
	Py_INCREF(&LauncherType);
	PyModule_AddObject(m, "Kernel", (PyObject *)&KernelType);
	PyModule_AddObject(m, "Dispatcher", (PyObject *)&DispatcherType);
	PyModule_AddObject(m, "Launcher", (PyObject *)&LauncherType);
	Py_INCREF(CompileError);
	PyModule_AddObject(m, "CompilationError", CompileError);
	return m;
}
