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
		{"i1", PK_I8}, {"i8", PK_I8}, {"u8", PK_I8}, {"i16", PK_I16}, {"i32", PK_I32}, {"u32", PK_I32},
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

static PyMethodDef kernel_methods[] = {
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
	PyObject *key;       /* borrowed or owned (owned_key) */
	int owned_key;
	int device;
	int is_ptr;
	int64_t i;           /* ints and bools; pointers */
	double f;
	Py_buffer view;      /* numpy and other buffers, released after the launch */
	int has_view;
	PyObject *keep;      /* a DLPack capsule, dropped after the launch */
} Arg;

static void arg_release(Arg *a)
{
	if (a->has_view)
		PyBuffer_Release(&a->view);
	a->has_view = 0;
	Py_CLEAR(a->keep);
	if (a->owned_key)
		Py_CLEAR(a->key);
	a->owned_key = 0;
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
	if (name && PyDict_SetItem(dtype_names, dtype, name) < 0)
		PyErr_Clear();
	return name;
}

static PyObject *ptr_keys;          /* dict: dtype name -> ("*fp32", "*fp32:16") */

/* "*fp32" or "*fp32:16" for a pointer to `dtype_name` at `ptr`. New reference. */
static PyObject *ptr_key(PyObject *dtype_name, int64_t ptr, int align)
{
	PyObject *pair = PyDict_GetItemWithError(ptr_keys, dtype_name);
	if (!pair) {
		if (PyErr_Occurred())
			return NULL;
		PyObject *plain = PyUnicode_FromFormat("*%U", dtype_name);
		PyObject *hinted = PyUnicode_FromFormat("*%U:16", dtype_name);
		pair = plain && hinted ? PyTuple_Pack(2, plain, hinted) : NULL;
		Py_XDECREF(plain);
		Py_XDECREF(hinted);
		if (!pair || PyDict_SetItem(ptr_keys, dtype_name, pair) < 0) {
			Py_XDECREF(pair);
			return NULL;
		}
		Py_DECREF(pair);   /* the dict keeps it */
	}
	return Py_NewRef(PyTuple_GET_ITEM(pair, align && ptr % 16 == 0));
}

static const char *format_dtype(const char *f)
{
	while (*f == '<' || *f == '=' || *f == '@' || *f == '!' || *f == '>')
		f++;
	if (!f[0] || f[1])
		return NULL;
	switch (f[0]) {
	case '?': return "i1";
	case 'b': return "i8";
	case 'B': return "u8";
	case 'h': return "i16";
	case 'H': return "u16";
	case 'i': return "i32";
	case 'I': return "u32";
	case 'l': case 'q': return "i64";
	case 'L': case 'Q': return "u64";
	case 'e': return "fp16";
	case 'f': return "fp32";
	case 'd': return "fp64";
	}
	return NULL;
}

static int set_ptr(Arg *a, PyObject *dtype_name, int64_t ptr, int align, int device)
{
	a->key = ptr_key(dtype_name, ptr, align);
	if (!a->key)
		return -1;
	a->owned_key = 1;
	a->is_ptr = 1;
	a->i = ptr;
	a->device = device;
	return 0;
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

static const char *dlpack_dtype(int code, int bits)
{
	switch (code) {
	case 0: return bits == 8 ? "i8" : bits == 16 ? "i16" : bits == 32 ? "i32" : bits == 64 ? "i64" : NULL;
	case 1: return bits == 8 ? "u8" : bits == 32 ? "u32" : bits == 64 ? "u64" : NULL;
	case 2: return bits == 16 ? "fp16" : bits == 32 ? "fp32" : bits == 64 ? "fp64" : NULL;
	case 4: return bits == 16 ? "bf16" : NULL;
	case 6: return bits == 8 ? "i1" : NULL;
	}
	return NULL;
}

static int classify_dlpack(Arg *a, PyObject *obj, PyObject *fn, int align)
{
	PyObject *cap = PyObject_CallNoArgs(fn);
	if (!cap)
		return -1;
	DLTensorView *t = PyCapsule_GetPointer(cap, "dltensor");
	if (!t) {
		Py_DECREF(cap);
		return -1;
	}
	const char *dt = dlpack_dtype(t->dtype.code, t->dtype.bits);
	int dev = t->device.device_type == 2 ? DEV_CUDA
		  : t->device.device_type == 1 || t->device.device_type == 3 ? DEV_CPU : DEV_NONE;
	if (!dt || !dev) {
		PyErr_Format(PyExc_TypeError, "DLPack tensor of dtype code %d, %d bits, on device type %d is not supported",
			     t->dtype.code, t->dtype.bits, t->device.device_type);
		Py_DECREF(cap);
		return -1;
	}
	PyObject *name = PyUnicode_FromString(dt);
	int rc = name ? set_ptr(a, name, (int64_t)((uintptr_t)t->data + t->byte_offset), align, dev) : -1;
	Py_XDECREF(name);
	a->keep = cap;
	return rc;
}

static int type_has(PyObject *obj, PyObject *name)
{
	return _PyType_Lookup(Py_TYPE(obj), name) != NULL;
}

/* Fills `a` for `obj`; the caller names the argument in a message. */
static int classify(Arg *a, PyObject *obj, int specialize, int align)
{
	memset(a, 0, sizeof *a);
	if (obj == Py_None) {
		a->key = s_key_none;
		return 0;
	}
	if (PyBool_Check(obj)) {
		a->key = s_i1;
		a->i = obj == Py_True;
		return 0;
	}
	if (PyLong_CheckExact(obj) || PyLong_Check(obj)) {
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
			a->key = align && u % 16 == 0 ? s_u64_16 : s_u64;
			return 0;
		}
		if (overflow < 0) {
			PyErr_Format(PyExc_OverflowError, "the integer %R does not fit in 64 bits", obj);
			return -1;
		}
		a->i = v;
		if (specialize && v == 1)
			a->key = s_key_one;
		else if (v >= INT32_MIN && v <= INT32_MAX)
			a->key = align && specialize && v % 16 == 0 ? s_i32_16 : s_i32;
		else
			a->key = align && specialize && v % 16 == 0 ? s_i64_16 : s_i64;
		return 0;
	}
	if (PyFloat_Check(obj)) {
		a->key = s_fp32;
		a->f = PyFloat_AS_DOUBLE(obj);
		return 0;
	}
	if (constexpr_type && PyObject_TypeCheck(obj, (PyTypeObject *)constexpr_type)) {
		PyObject *v = PyObject_GetAttr(obj, s_value);
		if (!v)
			return -1;
		int rc = classify(a, v, specialize, align);
		Py_DECREF(v);
		return rc;
	}
	align = align && specialize;
	/* torch tensors and Triton's duck type: data_ptr() and dtype */
	/* what the type offers, looked up without raising (a failed getattr costs an exception) */
	int has_data_ptr = type_has(obj, s_data_ptr), has_cai = !has_data_ptr && type_has(obj, s_cai);
	int has_buffer = !has_data_ptr && !has_cai && PyObject_CheckBuffer(obj) && !PyBytes_Check(obj);
	int has_dlpack = !has_data_ptr && !has_cai && !has_buffer && type_has(obj, s_dlpack);
	if (!has_data_ptr && !has_cai && !has_buffer && !has_dlpack)   /* duck types with instance attributes */
		has_data_ptr = PyObject_HasAttr(obj, s_data_ptr);
	if (has_data_ptr) {
		PyObject *p = PyObject_CallMethodNoArgs(obj, s_data_ptr);
		if (!p)
			return -1;
		unsigned long long ptr = PyLong_AsUnsignedLongLongMask(p);
		Py_DECREF(p);
		if (PyErr_Occurred())
			return -1;
		PyObject *dtype = PyObject_GetAttr(obj, s_dtype);
		if (!dtype) {
			PyErr_Clear();
			PyErr_Format(PyExc_TypeError, "an object with data_ptr() needs a dtype (got %.100s)",
				     Py_TYPE(obj)->tp_name);
			return -1;
		}
		PyObject *name = dtype_name_of(dtype);
		Py_DECREF(dtype);
		if (!name)
			return -1;
		int dev = DEV_CUDA;   /* Triton's duck type is GPU memory */
		PyObject *is_cuda = type_has(obj, s_is_cuda) || PyObject_HasAttr(obj, s_is_cuda)
					    ? PyObject_GetAttr(obj, s_is_cuda) : NULL;
		if (is_cuda) {
			dev = PyObject_IsTrue(is_cuda) ? DEV_CUDA : DEV_CPU;
			Py_DECREF(is_cuda);
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
		int rc = set_ptr(a, name, (int64_t)ptr, align, dev);
		Py_DECREF(name);
		return rc;
	}
	PyObject *cai = has_cai || (!has_buffer && !has_dlpack && PyObject_HasAttr(obj, s_cai))
				? PyObject_GetAttr(obj, s_cai) : NULL;
	if (cai) {
		PyObject *data = PyDict_Check(cai) ? PyDict_GetItemWithError(cai, s_data) : NULL;
		PyObject *typestr = PyDict_Check(cai) ? PyDict_GetItemWithError(cai, s_typestr) : NULL;
		int rc = -1;
		if (data && typestr && PyTuple_Check(data) && PyTuple_GET_SIZE(data) >= 1) {
			unsigned long long ptr = PyLong_AsUnsignedLongLongMask(PyTuple_GET_ITEM(data, 0));
			PyObject *name = PyErr_Occurred() ? NULL : dtype_name_of(typestr);
			rc = name ? set_ptr(a, name, (int64_t)ptr, align, DEV_CUDA) : -1;
			Py_XDECREF(name);
		} else if (!PyErr_Occurred()) {
			PyErr_Format(PyExc_TypeError, "__cuda_array_interface__ lacks data or typestr");
		}
		Py_DECREF(cai);
		return rc;
	}
	PyErr_Clear();
	if (has_buffer) {
		if (PyObject_GetBuffer(obj, &a->view, PyBUF_RECORDS_RO) < 0)
			return -1;
		a->has_view = 1;
		const char *dt = format_dtype(a->view.format ? a->view.format : "B");
		if (!dt) {
			PyErr_Format(PyExc_TypeError, "arrays of format '%s' are not supported", a->view.format);
			return -1;
		}
		PyObject *name = PyUnicode_FromString(dt);
		int rc = name ? set_ptr(a, name, (int64_t)(uintptr_t)a->view.buf, align, DEV_CPU) : -1;
		Py_XDECREF(name);
		return rc;
	}
	PyObject *dl = PyObject_GetAttr(obj, s_dlpack);
	if (dl) {
		int rc = classify_dlpack(a, obj, dl, align);
		Py_DECREF(dl);
		return rc;
	}
	PyErr_Clear();
	PyErr_Format(PyExc_TypeError,
		     "cannot pass an object of type %.100s (expected a tensor or array, an int, a float, a bool "
		     "or None)", Py_TYPE(obj)->tp_name);
	return -1;
}

/* ---- Dispatcher ---- */

#define ARGS_ON_STACK 32

typedef struct {
	PyObject_HEAD
	PyObject *dict;
	PyObject *name;          /* the kernel's name */
	PyObject *params;        /* tuple of names */
	PyObject *defaults;      /* tuple; no_default where none */
	PyObject *cache;         /* dict: key -> Kernel */
	int nparams;
	char *constexpr_flags, *dns, *dnsa;
	PyObject *weakrefs;
} DispatcherObject;

static void dispatcher_dealloc(DispatcherObject *self)
{
	PyObject_GC_UnTrack(self);
	if (self->weakrefs)
		PyObject_ClearWeakRefs((PyObject *)self);
	Py_CLEAR(self->dict);
	Py_CLEAR(self->name);
	Py_CLEAR(self->params);
	Py_CLEAR(self->defaults);
	Py_CLEAR(self->cache);
	free(self->constexpr_flags);
	free(self->dns);
	free(self->dnsa);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int dispatcher_traverse(DispatcherObject *self, visitproc visit, void *arg)
{
	Py_VISIT(self->dict);
	Py_VISIT(self->defaults);
	Py_VISIT(self->cache);
	Py_VISIT(Py_TYPE(self));
	return 0;
}

static int dispatcher_clear(DispatcherObject *self)
{
	Py_CLEAR(self->dict);
	Py_CLEAR(self->defaults);
	Py_CLEAR(self->cache);
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
	free(self->constexpr_flags);
	free(self->dns);
	free(self->dnsa);
	self->constexpr_flags = flags_from(cf, n);
	self->dns = flags_from(dns, n);
	self->dnsa = flags_from(dnsa, n);
	if (!self->constexpr_flags || !self->dns || !self->dnsa)
		return NULL;
	Py_XSETREF(self->name, Py_NewRef(name));
	Py_XSETREF(self->params, Py_NewRef(params));
	Py_XSETREF(self->defaults, Py_NewRef(defaults));
	if (!self->cache)
		self->cache = PyDict_New();
	self->nparams = n;
	Py_RETURN_NONE;
}

static int grid_from(PyObject *g, int grid[3], PyObject *name)
{
	grid[0] = grid[1] = grid[2] = 1;
	if (PyLong_Check(g)) {
		long v = PyLong_AsLong(g);
		if (v == -1 && PyErr_Occurred())
			return -1;
		grid[0] = (int)v;
		return 0;
	}
	PyObject *seq = PySequence_Fast(g, "the grid must be a tuple of 1 to 3 ints or a function returning one");
	if (!seq)
		return -1;
	Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
	if (n < 1 || n > 3) {
		PyErr_Format(PyExc_ValueError, "kernel '%U': the grid has %zd dimensions (1 to 3 are allowed)", name, n);
		Py_DECREF(seq);
		return -1;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
		long long v = PyLong_AsLongLong(item);
		if (v == -1 && PyErr_Occurred()) {
			PyErr_Clear();
			PyErr_Format(PyExc_TypeError, "kernel '%U': grid dimension %zd is %.100s, not an int", name, i,
				     Py_TYPE(item)->tp_name);
			Py_DECREF(seq);
			return -1;
		}
		if (v < 0 || v > INT32_MAX) {
			PyErr_Format(PyExc_ValueError, "kernel '%U': grid dimension %zd is %lld", name, i, v);
			Py_DECREF(seq);
			return -1;
		}
		grid[i] = (int)v;
	}
	Py_DECREF(seq);
	return 0;
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
static int current_stream(void **stream)
{
	*stream = NULL;
	if (!stream_getter || stream_getter == Py_None)
		return 0;
	PyObject *s;
	if (PyTuple_Check(stream_getter) && PyTuple_GET_SIZE(stream_getter) == 2) {
		PyObject *dev = PyObject_CallNoArgs(PyTuple_GET_ITEM(stream_getter, 0));
		if (!dev)
			return -1;
		s = PyObject_CallOneArg(PyTuple_GET_ITEM(stream_getter, 1), dev);
		Py_DECREF(dev);
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

/* Binds the call's arguments, finds or compiles the kernel, and launches it when `launch`.
 * Returns the Kernel (new reference) or NULL. */
static PyObject *dispatch(DispatcherObject *self, PyObject *grid_obj, PyObject *const *args, Py_ssize_t npos,
			  PyObject *kwnames, PyObject *const *kwvalues, PyObject *kwdict, int launch)
{
	int n = self->nparams;
	if (!self->params) {
		PyErr_SetString(PyExc_RuntimeError, "the kernel is not set up");
		return NULL;
	}
	PyObject *stack_vals[ARGS_ON_STACK];
	Arg stack_info[ARGS_ON_STACK];
	PyObject **vals = n <= ARGS_ON_STACK ? stack_vals : calloc((size_t)n, sizeof *vals);
	Arg *info = n <= ARGS_ON_STACK ? stack_info : calloc((size_t)n, sizeof *info);
	PyObject *extra = NULL;      /* keyword options that are not parameters, for a grid function */
	PyObject *result = NULL, *key = NULL, *kernel = NULL;
	int nclassified = 0;
	int num_warps = 4, num_stages = 3;
	PyObject *warps_obj = NULL, *stages_obj = NULL;
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
		int found = -1;
		for (int i = 0; i < n; i++) {
			PyObject *p = PyTuple_GET_ITEM(self->params, i);
			if (p == k || PyUnicode_Compare(p, k) == 0) {
				found = i;
				break;
			}
		}
		if (found >= 0) {
			if (vals[found]) {
				PyErr_Format(PyExc_TypeError, "kernel '%U' got multiple values for argument '%U'", self->name, k);
				goto done;
			}
			vals[found] = v;
			continue;
		}
		if (PyUnicode_Compare(k, s_num_warps) == 0)
			warps_obj = v;
		else if (PyUnicode_Compare(k, s_num_stages) == 0)
			stages_obj = v;
		else if (!is_ignored_option(k)) {
			PyErr_Format(PyExc_TypeError, "kernel '%U' got an unexpected keyword argument '%U'", self->name, k);
			goto done;
		}
		if (!extra && !(extra = PyDict_New()))
			goto done;
		if (PyDict_SetItem(extra, k, v) < 0)
			goto done;
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
	/* the key: device, warps, stages, then each parameter's part */
	key = PyTuple_New(n + 3);
	if (!key)
		goto done;
	int device = DEV_NONE, device_param = -1;
	for (int i = 0; i < n; i++) {
		PyObject *part;
		if (self->constexpr_flags[i]) {
			part = vals[i];
			if (constexpr_type && PyObject_TypeCheck(part, (PyTypeObject *)constexpr_type)) {
				part = PyObject_GetAttr(part, s_value);
				if (!part)
					goto done;
			} else {
				Py_INCREF(part);
			}
			if (PyObject_Hash(part) == -1) {
				PyErr_Clear();
				PyErr_Format(PyExc_TypeError, "kernel '%U': constexpr '%U' is %.100s, which cannot be a key",
					     self->name, PyTuple_GET_ITEM(self->params, i), Py_TYPE(part)->tp_name);
				Py_DECREF(part);
				goto done;
			}
			PyTuple_SET_ITEM(key, i + 3, part);
			memset(&info[i], 0, sizeof info[i]);
			nclassified = i + 1;
			continue;
		}
		int rc = classify(&info[i], vals[i], !self->dns[i], !self->dnsa[i]);
		nclassified = i + 1;
		if (rc < 0) {   /* name the argument in the message */
			PyObject *type, *value, *tb;
			PyErr_Fetch(&type, &value, &tb);
			PyErr_NormalizeException(&type, &value, &tb);
			PyObject *msg = PyUnicode_FromFormat("kernel '%U', argument '%U': %S", self->name,
							     PyTuple_GET_ITEM(self->params, i), value ? value : Py_None);
			if (msg)
				PyErr_SetObject(type, msg);
			Py_XDECREF(msg);
			Py_XDECREF(type);
			Py_XDECREF(value);
			Py_XDECREF(tb);
			goto done;
		}
		if (info[i].device) {
			if (device && info[i].device != device) {
				PyErr_Format(PyExc_ValueError,
					     "kernel '%U': argument '%U' is in %s memory but argument '%U' is in %s memory",
					     self->name, PyTuple_GET_ITEM(self->params, i),
					     info[i].device == DEV_CUDA ? "CUDA" : "CPU", PyTuple_GET_ITEM(self->params, device_param),
					     device == DEV_CUDA ? "CUDA" : "CPU");
				goto done;
			}
			device = info[i].device;
			device_param = i;
		}
		PyTuple_SET_ITEM(key, i + 3, Py_NewRef(info[i].key));
	}
	PyTuple_SET_ITEM(key, 0, Py_NewRef(device == DEV_CUDA ? s_cuda : device == DEV_CPU ? s_cpu : Py_None));
	PyTuple_SET_ITEM(key, 1, PyLong_FromLong(num_warps));
	PyTuple_SET_ITEM(key, 2, PyLong_FromLong(num_stages));
	kernel = PyDict_GetItemWithError(self->cache, key);
	if (kernel) {
		Py_INCREF(kernel);
	} else {
		if (PyErr_Occurred())
			goto done;
		PyObject *tuple = PyTuple_New(n);
		if (!tuple)
			goto done;
		for (int i = 0; i < n; i++)
			PyTuple_SET_ITEM(tuple, i, Py_NewRef(vals[i]));
		kernel = PyObject_CallMethodObjArgs((PyObject *)self, s_miss, key, tuple, extra ? extra : Py_None, NULL);
		Py_DECREF(tuple);
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
		if (PyDict_SetItem(self->cache, key, kernel) < 0)
			goto done;
	}
	if (!launch) {
		result = kernel;
		kernel = NULL;
		goto done;
	}
	/* the grid */
	int grid[3];
	if (PyCallable_Check(grid_obj)) {
		PyObject *meta = PyDict_New();
		for (int i = 0; meta && i < n; i++)
			if (PyDict_SetItem(meta, PyTuple_GET_ITEM(self->params, i), vals[i]) < 0)
				Py_CLEAR(meta);
		if (meta && extra && PyDict_Update(meta, extra) < 0)
			Py_CLEAR(meta);
		if (meta && !warps_obj) {
			PyObject *w = PyLong_FromLong(num_warps);
			if (PyDict_SetItem(meta, s_num_warps, w) < 0)
				Py_CLEAR(meta);
			Py_DECREF(w);
		}
		if (meta && !stages_obj) {
			PyObject *st = PyLong_FromLong(num_stages);
			if (PyDict_SetItem(meta, s_num_stages, st) < 0)
				Py_CLEAR(meta);
			Py_DECREF(st);
		}
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
	} else if (grid_from(grid_obj, grid, self->name) < 0) {
		goto done;
	}
	KernelObject *ko = (KernelObject *)kernel;
	Slot stack_slots[ARGS_ON_STACK];
	void *stack_ptrs[ARGS_ON_STACK];
	Slot *slots = ko->nargs <= ARGS_ON_STACK ? stack_slots : calloc((size_t)ko->nargs, sizeof *slots);
	void **ptrs = ko->nargs <= ARGS_ON_STACK ? stack_ptrs : calloc((size_t)ko->nargs, sizeof *ptrs);
	int bad = 0;
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
	} else if (ko->cuda) {
		void *stream = NULL;
		if (current_stream(&stream) == 0 && (rc = tritonc_launch(ko->k, grid, stream, ptrs)) != 0)
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
	Py_XDECREF(key);
	Py_XDECREF(kernel);
	Py_XDECREF(extra);
	if (vals != stack_vals)
		free(vals);
	if (info != stack_info)
		free(info);
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

static PyObject *dispatcher_get_cache(DispatcherObject *self, void *closure)
{
	return Py_NewRef(self->cache ? self->cache : Py_None);
}

/* kernel[grid]: a launcher bound to the grid */
typedef struct {
	PyObject_HEAD
	DispatcherObject *d;
	PyObject *grid;
	vectorcallfunc vectorcall;
} LauncherObject;

static PyTypeObject LauncherType;

static PyObject *launcher_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
	LauncherObject *l = (LauncherObject *)self;
	Py_ssize_t npos = PyVectorcall_NARGS(nargsf);
	PyObject *k = dispatch(l->d, l->grid, args, npos, kwnames, kwnames ? args + npos : NULL, NULL, 1);
	if (!k)
		return NULL;
	return k;
}

static void launcher_dealloc(LauncherObject *self)
{
	Py_XDECREF(self->d);
	Py_XDECREF(self->grid);
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
	LauncherObject *l = PyObject_New(LauncherObject, &LauncherType);
	if (!l)
		return NULL;
	l->d = (DispatcherObject *)Py_NewRef(self);
	l->grid = Py_NewRef(grid);
	l->vectorcall = launcher_vectorcall;
	return (PyObject *)l;
}

static PyMappingMethods dispatcher_mapping = {.mp_subscript = (binaryfunc)dispatcher_subscript};

static PyMethodDef dispatcher_methods[] = {
	{"_setup", (PyCFunction)dispatcher_setup, METH_VARARGS, "binds the parameter table"},
	{"_dispatch", (PyCFunction)dispatcher_py_dispatch, METH_VARARGS, "_dispatch(grid, args, kwargs, launch)"},
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

/* ---- module ---- */

/* configure(dtype_names, dtype_resolver, stream_getter, constexpr_type, no_default) */
static PyObject *py_configure(PyObject *self, PyObject *args)
{
	PyObject *names, *resolver, *stream, *cexpr, *nodef;
	if (!PyArg_ParseTuple(args, "O!OOOO", &PyDict_Type, &names, &resolver, &stream, &cexpr, &nodef))
		return NULL;
	Py_XSETREF(dtype_names, Py_NewRef(names));
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

static PyMethodDef module_methods[] = {
	{"compile", py_compile, METH_VARARGS,
	 "compile(source, filename, name, signature, defines, num_warps, num_stages, target) -> dict"},
	{"load", py_load, METH_VARARGS,
	 "load(code, target, name, threads, shared, run_width, cpu_threads, cache_dir, arg_types, arg_params) -> Kernel"},
	{"configure", py_configure, METH_VARARGS, "configure(dtype_names, resolver, stream_getter, constexpr, no_default)"},
	{"set_stream_getter", py_set_stream_getter, METH_O,
	 "the current CUDA stream: a function, or (device function, stream function of a device)"},
	{"_launch_floor", py_launch_floor, METH_VARARGS, "_launch_floor(kernel, grid, stream, values, n) -> ns a launch"},
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
	ptr_keys = PyDict_New();
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
