/* cpu.c: the CPU runtime (see cpu.h).
 *
 *   cache folder   which folder, creating it, private temporary folders
 *   command        the compiler's argv and the cache key hashed from it
 *   compiler       running it with posix_spawnp, its output through a pipe
 *   compile        cache lookup, build in a temporary folder, rename, dlopen
 *   run            the grid in contiguous chunks over big-stack workers, kept
 *                  from launch to launch
 *
 * Workers pull chunk numbers from an atomic counter, so the grid still runs
 * to the end when fewer threads than asked for could be started.
 *
 * Programs that wait for each other: a chunk is a run of consecutive
 * programs (axis 0 fastest, as the launch functions number them), chunks
 * are handed out in increasing order, and a worker runs the programs of its
 * chunk in order. So every program before a running one is finished,
 * running, or queued behind programs before it on a running worker. A
 * program that waits only for lower-numbered ones (Inductor's split scans
 * wait for those before them along axis 0) therefore always finishes: the
 * lowest unfinished program is running and waits for nothing unfinished.
 * The waits read memory with atomics (the C printer's __atomic builtins),
 * which the compiler cannot hoist out of the loop. */
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS, sigaltstack */
#include "runtime/cpu.h"

#include "base/base.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

extern char **environ;

#define WORKER_STACK_BYTES ((size_t)64 << 20)
#define AUTO_THREADS_MAX 64
#define THREADS_MAX 1024
#define OUTPUT_MAX_BYTES ((size_t)64 << 10)

struct CpuKernel {
	void *handle;          /* dlopen handle */
	CpuLaunchFn fn;
	bool from_cache;
	char *object_path;
	char *private_dir;     /* removed at free; NULL for a shared cache */
};

static void set_err(char *err, size_t errlen, const char *fmt, ...) TC_PRINTF(3, 4);

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || errlen == 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static char *path_join(const char *dir, const char *name)
{
	Buf b = {0};
	buf_printf(&b, "%s/%s", dir, name);
	return buf_detach(&b);
}

/* Removes a folder and the plain files in it; the folders made here hold
 * nothing else. */
static void remove_folder(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			char *path = path_join(dir, e->d_name);
			unlink(path);
			free(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

/* ---- cache folder ---- */

static const char *env_nonempty(const char *name)
{
	const char *v = getenv(name);
	return v && v[0] ? v : NULL;
}

/* The shared cache folder to use, or NULL for a private one. */
static char *cache_folder_choice(const char *asked)
{
	if (asked)
		return asked[0] ? base_strdup(asked) : NULL;
	const char *dir = env_nonempty("TRITONC_CACHE");
	if (dir)
		return base_strdup(dir);
	if ((dir = env_nonempty("XDG_CACHE_HOME")) != NULL)
		return path_join(dir, "tritonc");
	if ((dir = env_nonempty("HOME")) != NULL)
		return path_join(dir, ".cache/tritonc");
	return NULL;
}

/* mkdir -p, with owner-only permissions for what it creates. */
static bool make_folders(const char *path, char *err, size_t errlen)
{
	char *p = base_strdup(path);
	bool ok = true;
	for (char *s = p + 1; ok; s++) {
		bool end = *s == '\0';
		if (*s != '/' && !end)
			continue;
		*s = '\0';
		ok = mkdir(p, 0700) == 0 || errno == EEXIST;
		if (end)
			break;
		*s = '/';
	}
	struct stat st;
	if (ok && (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))) {
		ok = false;
		errno = ENOTDIR;
	}
	if (!ok)
		set_err(err, errlen, "cannot create the cache folder %s: %s", path, strerror(errno));
	free(p);
	return ok;
}

/* A fresh folder "PARENT/PREFIXxxxxxx"; NULL with errno set on failure. */
static char *make_temp_folder(const char *parent, const char *prefix)
{
	Buf b = {0};
	buf_printf(&b, "%s/%sXXXXXX", parent, prefix);
	char *dir = buf_detach(&b);
	if (!mkdtemp(dir)) {
		int saved = errno;
		free(dir);
		errno = saved;
		return NULL;
	}
	return dir;
}

/* Sets *dir to the folder objects go in; a private one is recorded in k. */
static bool open_cache_folder(CpuKernel *k, const char *asked, char **dir, char *err,
	size_t errlen)
{
	*dir = cache_folder_choice(asked);
	if (*dir)
		return make_folders(*dir, err, errlen);
	const char *tmp = env_nonempty("TMPDIR");
	k->private_dir = make_temp_folder(tmp ? tmp : "/tmp", "tritonc-");
	if (!k->private_dir) {
		set_err(err, errlen, "cannot create a private cache folder in %s: %s",
			tmp ? tmp : "/tmp", strerror(errno));
		return false;
	}
	*dir = base_strdup(k->private_dir);
	return true;
}

/* ---- command ---- */

/* argv for the compiler: the words of $CC, the fixed and extra flags and
 * the words of $TRITONC_CFLAGS (the part that goes into the cache key), then
 * "-o OUT SRC -lm" and NULL. */
typedef struct Command {
	char *cc_words;        /* a copy of $CC, split in place */
	char *flag_words;      /* a copy of $TRITONC_CFLAGS, split in place; NULL if unset */
	const char **argv;
	int key_words;         /* argv[0 .. key_words-1] are hashed */
	int argc;
} Command;

static const char *const fixed_flags[] = {"-std=c11", "-O2", "-fPIC", "-shared"};


static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Splits `s` in place at blanks and appends each word to the command. */
static void command_add_words(Command *c, char *s)
{
	while (*s) {
		while (is_blank(*s))
			*s++ = '\0';
		if (*s)
			c->argv[c->argc++] = s;
		while (*s && !is_blank(*s))
			s++;
	}
}

static void command_init(Command *c, const char *const *extra_flags)
{
	const char *cc = env_nonempty("CC");
	c->cc_words = base_strdup(cc ? cc : "cc");
	size_t extra = 0;
	while (extra_flags && extra_flags[extra])
		extra++;
	const char *flags = env_nonempty("TRITONC_CFLAGS");
	c->flag_words = flags ? base_strdup(flags) : NULL;
	size_t cap = strlen(c->cc_words) / 2 + 2 + TC_COUNT(fixed_flags) + extra + 5 +
		     (flags ? strlen(flags) / 2 + 1 : 0);
	c->argv = base_malloc(cap * sizeof *c->argv);
	c->argc = 0;
	command_add_words(c, c->cc_words);
	if (c->argc == 0)
		c->argv[c->argc++] = "cc";
	for (size_t i = 0; i < TC_COUNT(fixed_flags); i++)
		c->argv[c->argc++] = fixed_flags[i];
	for (size_t i = 0; i < extra; i++)
		c->argv[c->argc++] = extra_flags[i];
	if (c->flag_words)
		command_add_words(c, c->flag_words);   /* last, so "-O1" there wins over -O2 */
	c->key_words = c->argc;
	c->argv[c->argc] = NULL;
}

/* Appends the output and source paths; the command is then ready to run. */
static void command_set_paths(Command *c, const char *out, const char *src)
{
	c->argc = c->key_words;
	c->argv[c->argc++] = "-o";
	c->argv[c->argc++] = out;
	c->argv[c->argc++] = src;
	c->argv[c->argc++] = "-lm";
	c->argv[c->argc] = NULL;
}

/* The cache key: every word before the paths, NUL-separated, then the source. */
static uint64_t command_key(const Command *c, const char *source)
{
	uint64_t h = HASH_SEED;
	for (int i = 0; i < c->key_words; i++)
		h = base_hash_fnv1a(c->argv[i], strlen(c->argv[i]) + 1, h);
	return base_hash_fnv1a(source, strlen(source), h);
}

static void command_free(Command *c)
{
	free(c->cc_words);
	free(c->flag_words);
	free(c->argv);
}

/* ---- compiler ---- */

/* Reads `fd` to its end, keeping the first OUTPUT_MAX_BYTES (and saying
 * so when there was more). */
static void read_output(int fd, Buf *out)
{
	char chunk[4096];
	bool cut = false;
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (out->len < OUTPUT_MAX_BYTES)
			buf_putn(out, chunk, (size_t)n);
		else
			cut = true;
	}
	while (out->len > 0 && out->data[out->len - 1] == '\n')
		out->data[--out->len] = '\0';
	if (cut)
		buf_printf(out, "\n[the rest cut: the compiler's output is kept up to %zu bytes]", OUTPUT_MAX_BYTES);
}

/* Starts argv with stdin from /dev/null and stdout and stderr into `fd`. */
static int spawn_with_output(pid_t *pid, const char *const *argv, int fd)
{
	posix_spawn_file_actions_t actions;
	int rc = posix_spawn_file_actions_init(&actions);
	if (rc != 0)
		return rc;
	rc = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
	if (rc == 0)
		rc = posix_spawn_file_actions_adddup2(&actions, fd, 1);
	if (rc == 0)
		rc = posix_spawn_file_actions_adddup2(&actions, fd, 2);
	if (rc == 0)
		rc = posix_spawnp(pid, argv[0], &actions, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	return rc;
}

static int wait_child(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	return 0;
}

/* Runs the compiler; on failure, `err` gets its exit status and output. */
static bool run_compiler(const Command *c, char *err, size_t errlen)
{
	int fds[2];
	if (pipe(fds) != 0) {
		set_err(err, errlen, "cannot create a pipe: %s", strerror(errno));
		return false;
	}
	/* Neither end leaks into processes other threads start meanwhile. */
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	pid_t pid;
	int rc = spawn_with_output(&pid, c->argv, fds[1]);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		set_err(err, errlen, "cannot run the C compiler '%s': %s", c->argv[0], strerror(rc));
		return false;
	}
	Buf out = {0};
	read_output(fds[0], &out);
	close(fds[0]);
	int status = 0;
	bool ok = false;
	if (wait_child(pid, &status) != 0)
		set_err(err, errlen, "cannot wait for the C compiler '%s': %s", c->argv[0],
			strerror(errno));
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		ok = true;
	else if (WIFEXITED(status))
		set_err(err, errlen, "the C compiler '%s' failed (exit status %d):\n%s", c->argv[0],
			WEXITSTATUS(status), buf_str(&out));
	else
		set_err(err, errlen, "the C compiler '%s' was killed by signal %d:\n%s", c->argv[0],
			WTERMSIG(status), buf_str(&out));
	buf_free(&out);
	return ok;
}

/* ---- compile ---- */

/* Compiles into a temporary folder inside `dir`, then renames the object
 * to `object_path`. The temporary folder is removed either way. */
static bool build_object(Command *c, const char *source, const char *dir,
	const char *object_path, char *err, size_t errlen)
{
	char *tmp = make_temp_folder(dir, "tmp-");
	if (!tmp) {
		set_err(err, errlen, "cannot create a temporary folder in %s: %s", dir,
			strerror(errno));
		return false;
	}
	char *src = path_join(tmp, "kernel.c");
	char *out = path_join(tmp, "kernel.so");
	bool ok = file_write_atomic(src, source, strlen(source)) == 0;
	if (!ok)
		set_err(err, errlen, "cannot write %s: %s", src, strerror(errno));
	if (ok) {
		command_set_paths(c, out, src);
		ok = run_compiler(c, err, errlen);
	}
	if (ok && rename(out, object_path) != 0) {
		set_err(err, errlen, "cannot move the object to %s: %s", object_path,
			strerror(errno));
		ok = false;
	}
	remove_folder(tmp);
	free(src);
	free(out);
	free(tmp);
	return ok;
}

/* Loads the object; a stale or damaged cached one is rebuilt. */
static bool load_object(CpuKernel *k, Command *c, const char *source, const char *dir,
	char *err, size_t errlen)
{
	if (file_exists(k->object_path)) {
		k->handle = dlopen(k->object_path, RTLD_NOW | RTLD_LOCAL);
		if (k->handle) {
			k->from_cache = true;
			return true;
		}
	}
	if (!build_object(c, source, dir, k->object_path, err, errlen))
		return false;
	k->handle = dlopen(k->object_path, RTLD_NOW | RTLD_LOCAL);
	if (!k->handle) {
		const char *why = dlerror();
		set_err(err, errlen, "cannot load %s: %s", k->object_path, why ? why : "unknown");
		return false;
	}
	return true;
}

static bool find_launcher(CpuKernel *k, const char *name, char *err, size_t errlen)
{
	Buf symbol = {0};
	buf_printf(&symbol, "%s_launch", name);
	void *fn = dlsym(k->handle, symbol.data);
	if (fn)
		/* POSIX guarantees that dlsym's result converts to a function pointer. */
		memcpy(&k->fn, &fn, sizeof k->fn);
	else
		set_err(err, errlen, "the compiled kernel has no function %s", symbol.data);
	buf_free(&symbol);
	return fn != NULL;
}

CpuKernel *cpu_compile(const char *source, const char *name, const char *const *extra_flags,
	const char *cache_dir, char *err, size_t errlen)
{
	if (!source || !name || !name[0]) {
		set_err(err, errlen, "cpu_compile needs a source and a kernel name");
		return NULL;
	}
	CpuKernel *k = base_calloc(1, sizeof *k);
	char *dir = NULL;
	Command cmd;
	command_init(&cmd, extra_flags);
	bool ok = open_cache_folder(k, cache_dir, &dir, err, errlen);
	if (ok) {
		char file[32];
		snprintf(file, sizeof file, "tc-%016llx.so",
			(unsigned long long)command_key(&cmd, source));
		k->object_path = path_join(dir, file);
		ok = load_object(k, &cmd, source, dir, err, errlen) &&
			find_launcher(k, name, err, errlen);
	}
	command_free(&cmd);
	free(dir);
	if (!ok) {
		cpu_kernel_free(k);
		return NULL;
	}
	return k;
}

bool cpu_kernel_from_cache(const CpuKernel *k)
{
	return k && k->from_cache;
}

CpuLaunchFn cpu_kernel_fn(const CpuKernel *k)
{
	return k ? k->fn : NULL;
}

void *cpu_kernel_symbol(const CpuKernel *k, const char *name)
{
	return k && k->handle ? dlsym(k->handle, name) : NULL;
}

void cpu_kernel_free(CpuKernel *k)
{
	if (!k)
		return;
	if (k->handle)
		dlclose(k->handle);
	if (k->private_dir)
		remove_folder(k->private_dir);
	free(k->private_dir);
	free(k->object_path);
	free(k);
}

/* ---- run ---- */

/* One run of the grid, shared by its workers. */
typedef struct GridRun {
	CpuLaunchFn fn;
	void **args;
	int grid[3];
	long programs;
	int chunks;
	atomic_int next_chunk;
	atomic_int faulted;   /* a worker caught a fault: the others stop */
	void *fault_addr;     /* the first one's */
	int fault_sig;        /* 0: a checked access outside every buffer (cpu_bad_access) */
	long bad_bytes;       /* that access's bytes, source line and direction */
	int bad_line, bad_write;
} GridRun;

/* First program of chunk i; chunks differ in size by at most one. */
static long chunk_first(const GridRun *r, int i)
{
	long base = r->programs / r->chunks;
	long extra = r->programs % r->chunks;
	return base * i + (i < extra ? i : extra);
}

/* ---- faults in a kernel ----
 * A kernel that reads or writes past a buffer (the runtimes' buffers have
 * PROT_NONE pages on both sides, see cpu_buffer_alloc), overflows its
 * worker's stack or divides by zero must not take the tool down: SIGSEGV,
 * SIGBUS and SIGFPE on a worker running a grid (on its alternate stack)
 * jump back to the worker, which stops; the run fails with a message naming
 * the buffer and element. The handler is installed at the first launch and
 * stays; a fault on any other thread is not ours: the handler installed
 * before ours (else the default action) runs. */

static _Thread_local sigjmp_buf *fault_jump;
static _Thread_local void *fault_addr_seen;
static _Thread_local int fault_sig_seen;
/* a checked kernel's bad access (cpu_bad_access): its bytes, line, and 1 for a write */
static _Thread_local long bad_bytes_seen;
static _Thread_local int bad_line_seen, bad_write_seen;

static const int fault_sigs[3] = {SIGSEGV, SIGBUS, SIGFPE};
static struct sigaction fault_previous[3];   /* what was installed before on_fault */

/* Not a worker's fault: the handler that was there before takes over (the
 * default action when there was none), and returning re-runs the
 * instruction, which now reaches it (a signal someone sent is sent again). */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (!fault_jump) {
		for (int i = 0; i < 3; i++) {
			if (fault_sigs[i] != sig)
				continue;
			struct sigaction prev = fault_previous[i];
			if (!(prev.sa_flags & SA_SIGINFO) && prev.sa_handler == SIG_IGN)
				prev.sa_handler = SIG_DFL;
			sigaction(sig, &prev, NULL);
			if (si && si->si_code <= 0)   /* sent (kill, raise), not a fault: re-running sends nothing */
				raise(sig);
			return;
		}
		signal(sig, SIG_DFL);
		return;
	}
	fault_addr_seen = si->si_addr;
	fault_sig_seen = sig;
	siglongjmp(*fault_jump, 1);
}

/* Puts on_fault in place: once, and again when a program (Python's
 * faulthandler, say) installed its own SIGSEGV handler over it since; that
 * one is then what a fault outside the workers reaches. One sigaction
 * query a launch; called with run_lock held. */
static void install_fault_handlers(void)
{
	struct sigaction cur;
	if (sigaction(SIGSEGV, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_fault)
		return;
	struct sigaction sa = {0};
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++) {
		if (sigaction(fault_sigs[i], NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
		    cur.sa_sigaction == on_fault)
			continue;
		sigaction(fault_sigs[i], &sa, &fault_previous[i]);
	}
}

typedef struct GuardedBuf {
	char *map;            /* the mapping: guard page, data, guard page */
	size_t maplen;
	char *data;           /* ends where the trailing guard page starts */
	size_t bytes;
	size_t esize;
	char name[64];
} GuardedBuf;

#define CANARY 0xa5

static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;
static GuardedBuf *guarded;
static int nguarded, capguarded;

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (size_t)p : 4096;
}

void *cpu_buffer_alloc(size_t bytes, size_t esize, const char *name, char *err, size_t errlen)
{
	size_t pg = page_size();
	size_t body = (bytes + 15) / 16 * 16;
	if (bytes > SIZE_MAX / 2 || body / pg > SIZE_MAX / pg - 4) {
		set_err(err, errlen, "buffer '%s' of %zu bytes is too large", name, bytes);
		return NULL;
	}
	size_t maplen = (body + pg - 1) / pg * pg + 2 * pg;
	char *map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED) {
		set_err(err, errlen, "out of memory: cannot allocate %zu bytes for buffer '%s'", bytes, name);
		return NULL;
	}
	if (mprotect(map, pg, PROT_NONE) != 0 || mprotect(map + maplen - pg, pg, PROT_NONE) != 0) {
		munmap(map, maplen);
		set_err(err, errlen, "cannot guard buffer '%s': %s", name, strerror(errno));
		return NULL;
	}
	GuardedBuf g = {.map = map, .maplen = maplen, .data = map + maplen - pg - body, .bytes = bytes,
			.esize = esize ? esize : 1};
	snprintf(g.name, sizeof g.name, "%s", name ? name : "?");
	/* the bytes between the leading guard page and the data (less than a
	 * page) hold a pattern: a store before the buffer changes it, and
	 * cpu_buffer_check finds it after the run */
	memset(map + pg, CANARY, (size_t)(g.data - (map + pg)));
	pthread_mutex_lock(&guard_lock);
	if (nguarded == capguarded) {
		capguarded = capguarded ? 2 * capguarded : 16;
		guarded = base_realloc(guarded, sizeof *guarded * (size_t)capguarded);
	}
	guarded[nguarded++] = g;
	pthread_mutex_unlock(&guard_lock);
	return g.data;
}

int cpu_buffer_check(const void *p, char *err, size_t errlen)
{
	if (!p)
		return 0;
	size_t pg = page_size();
	int rc = 0;
	pthread_mutex_lock(&guard_lock);
	for (int i = 0; i < nguarded; i++) {
		const GuardedBuf *g = &guarded[i];
		if (g->data != p)
			continue;
		for (const unsigned char *b = (const unsigned char *)g->map + pg; b < (const unsigned char *)g->data; b++) {
			if (*b == CANARY)
				continue;
			long long off = (long long)((const char *)b - g->data);
			long long elem = -((-off + (long long)g->esize - 1) / (long long)g->esize);
			set_err(err, errlen, "the kernel wrote %s[%lld], before its %zu elements (a store without a "
					     "mask, or a negative offset)", g->name, elem, g->bytes / g->esize);
			rc = -1;
			break;
		}
		break;
	}
	pthread_mutex_unlock(&guard_lock);
	return rc;
}

void cpu_buffer_free(void *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&guard_lock);
	for (int i = 0; i < nguarded; i++) {
		if (guarded[i].data != p)
			continue;
		munmap(guarded[i].map, guarded[i].maplen);
		guarded[i] = guarded[--nguarded];
		break;
	}
	if (!nguarded) {
		free(guarded);
		guarded = NULL;
		capguarded = 0;
	}
	pthread_mutex_unlock(&guard_lock);
}

void cpu_bad_access(const void *p, long bytes, int line, int write)
{
	if (!fault_jump)
		abort();   /* not a worker running a grid: nothing to stop */
	fault_addr_seen = (void *)(uintptr_t)p;
	fault_sig_seen = 0;
	bad_bytes_seen = bytes;
	bad_line_seen = line;
	bad_write_seen = write;
	siglongjmp(*fault_jump, 1);
}

/* A checked access outside every buffer: the buffer it is nearest (the
 * one it starts in, overlaps or comes closest to) and its element there. */
static void describe_bad_access(const GridRun *r, char *err, size_t errlen)
{
	uintptr_t a = (uintptr_t)r->fault_addr;
	const GuardedBuf *best = NULL;
	uintptr_t best_gap = UINTPTR_MAX;
	pthread_mutex_lock(&guard_lock);
	for (int i = 0; i < nguarded; i++) {
		const GuardedBuf *g = &guarded[i];
		uintptr_t lo = (uintptr_t)g->data, hi = lo + g->bytes;
		uintptr_t gap = a < lo ? lo - a : a >= hi ? a - hi + 1 : 0;
		if (gap < best_gap) {
			best_gap = gap;
			best = g;
		}
	}
	const char *how = r->bad_write ? "wrote" : "read";
	char where[48] = "";
	if (r->bad_line > 0)
		snprintf(where, sizeof where, " at line %d", r->bad_line);
	if (best) {
		long long off = (long long)(a - (uintptr_t)best->data);
		if (a < (uintptr_t)best->data)
			off = -(long long)((uintptr_t)best->data - a);
		long long es = (long long)best->esize;
		long long elem = off >= 0 ? off / es : -((-off + es - 1) / es);
		set_err(err, errlen, "the kernel %s %s[%lld]%s, %s its %zu elements (a load or store without a mask, "
				     "or a buffer given too small with --arg)",
			how, best->name, elem, where, off < 0 ? "before" : "past", best->bytes / best->esize);
	} else {
		set_err(err, errlen, "the kernel %s %ld bytes at %p%s, outside every buffer", how, r->bad_bytes,
			r->fault_addr, where);
	}
	pthread_mutex_unlock(&guard_lock);
}

/* What a caught fault was, in words. */
static void describe_fault(const GridRun *r, char *err, size_t errlen)
{
	if (r->fault_sig == 0) {
		describe_bad_access(r, err, errlen);
		return;
	}
	if (r->fault_sig == SIGFPE) {
		set_err(err, errlen, "the kernel stopped on an arithmetic fault (SIGFPE: an integer division by zero or "
				     "INT_MIN / -1 in the generated code)");
		return;
	}
	const char *a = r->fault_addr;
	pthread_mutex_lock(&guard_lock);
	for (int i = 0; i < nguarded; i++) {
		const GuardedBuf *g = &guarded[i];
		if (a < g->map || a >= g->map + g->maplen)
			continue;
		long long off = (long long)(a - g->data);
		long long elem = off >= 0 ? off / (long long)g->esize : -((-off + (long long)g->esize - 1) / (long long)g->esize);
		set_err(err, errlen, "the kernel accessed %s[%lld], %s its %zu elements (a load or store without a "
				     "mask, or a buffer given too small with --arg)",
			g->name, elem, off < 0 ? "before" : "past", g->bytes / g->esize);
		pthread_mutex_unlock(&guard_lock);
		return;
	}
	pthread_mutex_unlock(&guard_lock);
	set_err(err, errlen, "the kernel stopped on a fault (%s at address %p: outside every buffer, or its "
			     "worker's stack overflowed)", r->fault_sig == SIGBUS ? "SIGBUS" : "SIGSEGV", r->fault_addr);
}

/* Takes the next chunk until none is left; programs in order (see the top). */
static void run_chunks(GridRun *r)
{
	sigjmp_buf jb;
	if (sigsetjmp(jb, 0)) {   /* no mask to restore: SA_NODEFER and an empty sa_mask leave it as it was */
		fault_jump = NULL;
		if (atomic_fetch_add(&r->faulted, 1) == 0) {
			r->fault_addr = fault_addr_seen;
			r->fault_sig = fault_sig_seen;
			r->bad_bytes = bad_bytes_seen;
			r->bad_line = bad_line_seen;
			r->bad_write = bad_write_seen;
		}
		return;
	}
	fault_jump = &jb;
	for (;;) {
		int i = atomic_fetch_add(&r->next_chunk, 1);
		if (i >= r->chunks || atomic_load(&r->faulted))
			break;
		long first = chunk_first(r, i);
		r->fn(r->args, r->grid, first, chunk_first(r, i + 1) - first);
	}
	fault_jump = NULL;
}

/* ---- the workers ----
 * Made on first need, each with a big stack and an alternate signal stack,
 * and kept for the process's life: a launch hands its GridRun to the first
 * `wanted` workers, runs chunks itself (caller_run) and waits until they
 * are done. One grid runs at a time
 * (run_lock); the workers block the asynchronous signals, which go to the
 * program's own threads. At exit (or when the library is unloaded) idle
 * workers are stopped and joined; a child after fork() starts with none. */
typedef struct Pool {
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	pthread_t *threads;
	int nthreads, cap;
	GridRun *job;
	unsigned long generation;   /* one more for every grid handed out */
	int wanted;                 /* workers 0 .. wanted-1 run this grid */
	int active;                 /* of those, the ones not finished yet */
	bool stop;
	bool stuck;                 /* a grid outlived its time limit: its workers still run it */
} Pool;

static Pool pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER,
		    .done = PTHREAD_COND_INITIALIZER};
static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;   /* one grid at a time */

typedef struct WorkerArg {
	int index;
	unsigned long seen;   /* the generation at its start: earlier grids are not its */
} WorkerArg;

static void *worker_main(void *arg)
{
	WorkerArg a = *(WorkerArg *)arg;
	free(arg);
	sigset_t mask;
	sigfillset(&mask);
	static const int sync_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS};
	for (size_t i = 0; i < sizeof sync_sigs / sizeof sync_sigs[0]; i++)
		sigdelset(&mask, sync_sigs[i]);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	size_t altlen = 1 << 16;
	stack_t alt = {.ss_sp = malloc(altlen), .ss_size = altlen};
	bool have_alt = alt.ss_sp && sigaltstack(&alt, NULL) == 0;
	pthread_mutex_lock(&pool.lock);
	for (;;) {
		while (!pool.stop && (pool.generation == a.seen || a.index >= pool.wanted))
			pthread_cond_wait(&pool.work, &pool.lock);
		if (pool.stop)
			break;
		a.seen = pool.generation;
		GridRun *r = pool.job;
		pthread_mutex_unlock(&pool.lock);
		run_chunks(r);
		pthread_mutex_lock(&pool.lock);
		if (--pool.active == 0)
			pthread_cond_signal(&pool.done);
	}
	pthread_mutex_unlock(&pool.lock);
	if (have_alt) {
		stack_t off = {.ss_flags = SS_DISABLE};
		sigaltstack(&off, NULL);
	}
	free(alt.ss_sp);
	return NULL;
}

/* The launching thread runs chunks too, on a big stack of its own (its own
 * may be small: a Python thread's), switched to with swapcontext; then a
 * grid of one program wakes no worker. One such stack serves every caller,
 * since one grid runs at a time. It has a guard page at its low end, and
 * the caller's alternate signal stack is ours while it runs there. */
static struct {
	char *map;            /* guard page, then the stack */
	size_t maplen;
	char alt[1 << 16];
	GridRun *job;
	ucontext_t back, on_stack;
	bool broken;          /* the stack could not be made: workers alone */
} caller;

/* AddressSanitizer does not follow swapcontext onto another stack (it warns
 * and may report false errors): under it the workers run every program. */
#if defined(__SANITIZE_ADDRESS__)
#define CALLER_RUNS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CALLER_RUNS 0
#endif
#endif
#ifndef CALLER_RUNS
#define CALLER_RUNS 1
#endif

static void caller_entry(void)
{
	run_chunks(caller.job);
}

/* Runs chunks of `r` on the calling thread; run_lock held. false when the
 * big stack is not available (the workers then do it all). */
static bool caller_run(GridRun *r)
{
	if (!CALLER_RUNS)
		return false;
	size_t pg = page_size();
	if (!caller.map && !caller.broken) {
		size_t len = WORKER_STACK_BYTES + pg;
		char *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (map == MAP_FAILED || mprotect(map, pg, PROT_NONE) != 0) {
			if (map != MAP_FAILED)
				munmap(map, len);
			caller.broken = true;
		} else {
			caller.map = map;
			caller.maplen = len;
		}
	}
	if (!caller.map || getcontext(&caller.on_stack) != 0)
		return false;
	caller.on_stack.uc_stack.ss_sp = caller.map + pg;
	caller.on_stack.uc_stack.ss_size = caller.maplen - pg;
	caller.on_stack.uc_link = &caller.back;
	makecontext(&caller.on_stack, caller_entry, 0);
	caller.job = r;
	stack_t alt = {.ss_sp = caller.alt, .ss_size = sizeof caller.alt}, old_alt;
	bool have_alt = sigaltstack(&alt, &old_alt) == 0;
	bool ok = swapcontext(&caller.back, &caller.on_stack) == 0;
	if (have_alt) {
		if (old_alt.ss_flags & SS_DISABLE)
			old_alt = (stack_t){.ss_flags = SS_DISABLE};
		sigaltstack(&old_alt, NULL);
	}
	caller.job = NULL;
	return ok;
}

/* Starts workers until there are `n` (or as many as could be started);
 * pool.lock held. 0, or the error of the first failed pthread_create. */
static int pool_grow(int n)
{
	if (pool.nthreads >= n)
		return 0;
	if (n > pool.cap) {
		pool.cap = n;
		pool.threads = base_realloc(pool.threads, sizeof *pool.threads * (size_t)n);
	}
	pthread_attr_t attr;
	int rc = pthread_attr_init(&attr);
	if (rc == 0 && (rc = pthread_attr_setstacksize(&attr, WORKER_STACK_BYTES)) != 0)
		pthread_attr_destroy(&attr);
	if (rc != 0)
		return rc;
	while (pool.nthreads < n) {
		WorkerArg *a = base_malloc(sizeof *a);
		*a = (WorkerArg){.index = pool.nthreads, .seen = pool.generation};
		rc = pthread_create(&pool.threads[pool.nthreads], &attr, worker_main, a);
		if (rc != 0) {
			free(a);
			break;
		}
		pool.nthreads++;
	}
	pthread_attr_destroy(&attr);
	return rc;
}

__attribute__((destructor)) static void pool_stop(void)
{
	pthread_mutex_lock(&pool.lock);
	if (pool.job || !pool.nthreads) {   /* a grid still runs (exit from another thread): leave it be */
		pthread_mutex_unlock(&pool.lock);
		return;
	}
	pool.stop = true;
	pthread_cond_broadcast(&pool.work);
	pthread_mutex_unlock(&pool.lock);
	for (int i = 0; i < pool.nthreads; i++)
		pthread_join(pool.threads[i], NULL);
	free(pool.threads);
	pool.threads = NULL;
	pool.nthreads = pool.cap = 0;
	pool.stop = false;
}

/* fork() copies only the calling thread: the child's pool starts empty. */
static void pool_after_fork(void)
{
	pthread_mutex_init(&pool.lock, NULL);
	pthread_cond_init(&pool.work, NULL);
	pthread_cond_init(&pool.done, NULL);
	pthread_mutex_init(&run_lock, NULL);
	pool.threads = NULL;   /* the parent's threads do not exist here */
	pool.nthreads = pool.cap = pool.wanted = pool.active = 0;
	pool.job = NULL;
	pool.stop = false;
}

static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

static void pool_init(void)
{
	pthread_atfork(NULL, NULL, pool_after_fork);
}

/* The number of programs in `grid`, or -1 (with `err` set). */
static long grid_programs(const int grid[3], char *err, size_t errlen)
{
	long n = 1;
	for (int axis = 0; axis < 3; axis++) {
		if (grid[axis] < 0) {
			set_err(err, errlen, "grid axis %d is negative (%d)", axis, grid[axis]);
			return -1;
		}
		if (grid[axis] > 0 && n > LONG_MAX / grid[axis]) {
			set_err(err, errlen, "the grid %d x %d x %d has too many programs", grid[0],
				grid[1], grid[2]);
			return -1;
		}
		n *= grid[axis];
	}
	return n;
}

static int worker_count(int asked, long programs)
{
	long n = asked;
	if (asked == 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		n = cpus < 1 ? 1 : cpus > AUTO_THREADS_MAX ? AUTO_THREADS_MAX : cpus;
	}
	if (n > THREADS_MAX)
		n = THREADS_MAX;
	return (int)(n < programs ? n : programs);
}

/* Waits until the workers are done, or until `deadline` (when given) has
 * passed: false then, the grid left running (pool.stuck). pool.lock held. */
static bool wait_workers(const struct timespec *deadline)
{
	while (pool.active > 0) {
		if (!deadline)
			pthread_cond_wait(&pool.done, &pool.lock);
		else if (pthread_cond_timedwait(&pool.done, &pool.lock, deadline) == ETIMEDOUT && pool.active > 0) {
			pool.stuck = true;
			return false;
		}
	}
	return true;
}

/* Runs the grid on the calling thread and up to r->chunks - 1 workers;
 * run_lock held. Since everyone takes chunks until none is left, one of
 * them is enough to finish the grid. With a deadline the workers alone run
 * it (r->chunks of them), so that the caller can stop waiting: a program
 * stuck on its own stack could not be left. *timed_out then says whether
 * they missed it. */
static bool run_workers(GridRun *r, const struct timespec *deadline, bool *timed_out, char *err, size_t errlen)
{
	pthread_mutex_lock(&pool.lock);
	int helpers = deadline ? r->chunks : r->chunks - 1;
	int rc = pool_grow(helpers);
	if (helpers > pool.nthreads)
		helpers = pool.nthreads;
	pool.job = r;
	pool.wanted = pool.active = helpers;
	if (helpers > 0) {
		pool.generation++;
		pthread_cond_broadcast(&pool.work);
	}
	pthread_mutex_unlock(&pool.lock);
	bool ran = !deadline && caller_run(r);
	pthread_mutex_lock(&pool.lock);
	if (!ran && helpers == 0) {   /* no big stack here: one worker does it all */
		rc = pool_grow(1);
		if (pool.nthreads > 0) {
			pool.wanted = pool.active = 1;
			pool.generation++;
			pthread_cond_broadcast(&pool.work);
			helpers = 1;
		}
	}
	if (!wait_workers(helpers > 0 ? deadline : NULL)) {
		*timed_out = true;
		pthread_mutex_unlock(&pool.lock);   /* pool.job stays: the exit handler leaves the pool alone */
		return false;
	}
	pool.job = NULL;
	pool.wanted = 0;
	pthread_mutex_unlock(&pool.lock);
	if (!ran && helpers == 0) {
		set_err(err, errlen, "cannot start a worker thread: %s", strerror(rc));
		return false;
	}
	return true;
}

/* The time `seconds` from now on the clock pthread_cond_timedwait uses. */
static struct timespec deadline_after(double seconds)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	double whole = (double)(time_t)seconds;
	t.tv_sec += (time_t)seconds;
	t.tv_nsec += (long)((seconds - whole) * 1e9);
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

int cpu_run(const CpuKernel *k, void **args, const int grid[3], int threads, char *err,
	size_t errlen)
{
	return cpu_run_timed(k, args, grid, threads, 0, err, errlen);
}

int cpu_run_timed(const CpuKernel *k, void **args, const int grid[3], int threads, double timeout_s, char *err,
	size_t errlen)
{
	if (!k || !k->fn || !grid) {
		set_err(err, errlen, "cpu_run needs a compiled kernel and a grid");
		return -1;
	}
	if (threads < 0) {
		set_err(err, errlen, "the thread count is negative (%d)", threads);
		return -1;
	}
	long programs = grid_programs(grid, err, errlen);
	if (programs < 0)
		return -1;
	if (programs == 0)
		return 0;
	/* on the heap: workers past a time limit keep reading it */
	GridRun *r = base_calloc(1, sizeof *r);
	*r = (GridRun){.fn = k->fn, .args = args, .programs = programs};
	memcpy(r->grid, grid, sizeof r->grid);
	r->chunks = worker_count(threads, programs);
	atomic_init(&r->next_chunk, 0);
	atomic_init(&r->faulted, 0);
	pthread_once(&pool_once, pool_init);
	pthread_mutex_lock(&run_lock);
	if (pool.stuck) {
		pthread_mutex_unlock(&run_lock);
		free(r);
		set_err(err, errlen, "an earlier kernel did not finish in its time limit and still runs");
		return -1;
	}
	install_fault_handlers();
	struct timespec deadline = deadline_after(timeout_s);
	bool timed_out = false;
	bool ok = run_workers(r, timeout_s > 0 ? &deadline : NULL, &timed_out, err, errlen);
	pthread_mutex_unlock(&run_lock);
	if (timed_out) {   /* r stays with the stuck workers (pool.job) */
		set_err(err, errlen, "did not finish within %g s", timeout_s);
		return CPU_TIMED_OUT;
	}
	if (ok && atomic_load(&r->faulted)) {
		describe_fault(r, err, errlen);
		ok = false;
	}
	free(r);
	return ok ? 0 : -1;
}

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

int cpu_time(const CpuKernel *k, void **args, const int grid[3], int threads, int warmup,
	int reps, double *ms, char *err, size_t errlen)
{
	if (warmup < 0 || reps < 0 || (reps > 0 && !ms)) {
		set_err(err, errlen, "cpu_time needs warmup >= 0, reps >= 0 and a place for the times");
		return -1;
	}
	for (int i = 0; i < warmup; i++) {
		if (cpu_run(k, args, grid, threads, err, errlen) != 0)
			return -1;
	}
	for (int i = 0; i < reps; i++) {
		double start = now_ms();
		if (cpu_run(k, args, grid, threads, err, errlen) != 0)
			return -1;
		ms[i] = now_ms() - start;
	}
	return 0;
}
