/* file.c: whole-file reads and safe writes. */
#define _POSIX_C_SOURCE 200809L
#include "base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Opened without blocking (a FIFO with no writer would wait forever) and
 * looked at before a byte is read: only a regular file of at most
 * FILE_READ_MAX bytes is read. */
char *file_read(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return NULL;
	struct stat st;
	int err = 0;
	if (fstat(fd, &st) != 0)
		err = errno;
	else if (S_ISDIR(st.st_mode))
		err = EISDIR;
	else if (!S_ISREG(st.st_mode))
		err = ENOTSUP;
	else if (st.st_size > FILE_READ_MAX)
		err = EFBIG;
	if (err) {
		close(fd);
		errno = err;
		return NULL;
	}
	Buf b = {0};
	char chunk[65536];
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof chunk);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0) {
			err = errno;
			break;
		}
		if (n == 0)
			break;
		if (b.len + (size_t)n > FILE_READ_MAX) {   /* it grew while being read */
			err = EFBIG;
			break;
		}
		buf_putn(&b, chunk, (size_t)n);
	}
	close(fd);
	if (err) {
		buf_free(&b);
		errno = err;
		return NULL;
	}
	if (len)
		*len = b.len;
	return buf_detach(&b);
}

const char *file_strerror(int err)
{
	if (err == ENOTSUP)
		return "not a regular file (a FIFO, device or socket is not read)";
	if (err == EFBIG)
		return "larger than 64 MiB, the limit for an input file";
	return strerror(err);
}

/* ---- writes ---- */

static int fail(char *why, size_t n, int err, const char *fmt, ...)
{
	if (why && n) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, n, fmt, ap);
		va_end(ap);
	}
	errno = err;
	return -1;
}

/* PATH with every symbolic link along its last component followed, also a
 * link to nothing yet (the file it names is created); NULL on a loop. */
static char *resolve_links(const char *path)
{
	char *cur = base_strdup(path);
	for (int hops = 0; hops < 40; hops++) {
		struct stat ls;
		if (lstat(cur, &ls) != 0 || !S_ISLNK(ls.st_mode))
			return cur;
		size_t cap = (size_t)ls.st_size + 2 > 256 ? (size_t)ls.st_size + 2 : 256;
		char *link = base_malloc(cap);
		ssize_t got = readlink(cur, link, cap - 1);
		if (got < 0) {
			free(link);
			return cur;
		}
		link[got] = '\0';
		char *next;
		const char *slash = strrchr(cur, '/');
		if (link[0] == '/' || !slash) {
			next = link;
		} else {
			size_t dn = (size_t)(slash - cur) + 1;
			next = base_malloc(dn + (size_t)got + 1);
			memcpy(next, cur, dn);
			memcpy(next + dn, link, (size_t)got + 1);
			free(link);
		}
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

static bool write_all(int fd, const char *data, size_t len)
{
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		done += (size_t)w;
	}
	return true;
}

/* A new file beside `path`, created with O_EXCL (mode 0666 less the umask);
 * its name in *tmp. */
static int open_temp(const char *path, char **tmp)
{
	size_t n = strlen(path) + 40;
	char *name = base_malloc(n);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t seed = base_hash_fnv1a(&ts, sizeof ts, HASH_SEED ^ (uint64_t)getpid() ^ (uint64_t)(uintptr_t)&ts);
	for (int tries = 0; tries < 100; tries++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		snprintf(name, n, "%s.tmp%06llx", path, (unsigned long long)(seed >> 40));
		int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
		if (fd >= 0) {
			*tmp = name;
			return fd;
		}
		if (errno != EEXIST)
			break;
	}
	int saved = errno;
	free(name);
	errno = saved;
	return -1;
}

/* A device or FIFO: written through, never replaced. */
static int write_through(const char *path, const struct stat *st, const char *data, size_t len, char *why, size_t n)
{
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 && errno == ENXIO && S_ISFIFO(st->st_mode))
		return fail(why, n, ENXIO, "a FIFO with no reader");
	if (fd < 0)
		return fail(why, n, errno, "%s", strerror(errno));
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	struct stat now;
	if (fstat(fd, &now) != 0 || now.st_ino != st->st_ino || now.st_dev != st->st_dev) {
		close(fd);
		return fail(why, n, EAGAIN, "it changed while being opened");
	}
	bool ok = write_all(fd, data, len);
	int saved = errno;
	if (close(fd) != 0 && ok)
		return fail(why, n, errno, "%s", strerror(errno));
	return ok ? 0 : fail(why, n, saved, "%s", strerror(saved));
}

/* A regular file with other hard links: rewritten in place, after a copy
 * of the old text is safe beside it; on a failure the old text goes back. */
static int rewrite_in_place(const char *path, const struct stat *st, const char *data, size_t len, char *why, size_t n)
{
	size_t oldlen;
	char *old = file_read(path, &oldlen);
	if (!old)
		return fail(why, n, errno, "%s", strerror(errno));
	char *tmp = NULL;
	int bfd = open_temp(path, &tmp);
	if (bfd < 0) {
		free(old);
		return fail(why, n, errno, "cannot create a file beside it: %s", strerror(errno));
	}
	bool backed = write_all(bfd, old, oldlen) && fsync(bfd) == 0;
	int saved = errno;
	backed = close(bfd) == 0 && backed;
	if (!backed) {
		unlink(tmp);
		free(tmp);
		free(old);
		return fail(why, n, saved, "%s", strerror(saved));
	}
	int rc = 0;
	int fd = open(path, O_WRONLY | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0) {
		rc = fail(why, n, errno, "%s", strerror(errno));
	} else {
		struct stat now;
		bool same = fstat(fd, &now) == 0 && now.st_ino == st->st_ino && now.st_dev == st->st_dev;
		if (!same) {
			rc = fail(why, n, EAGAIN, "it changed while being opened");
		} else if (!write_all(fd, data, len) || ftruncate(fd, (off_t)len) != 0 || fsync(fd) != 0) {
			saved = errno;
			/* put the old text back */
			bool back = pwrite(fd, old, oldlen, 0) == (ssize_t)oldlen && ftruncate(fd, (off_t)oldlen) == 0;
			rc = fail(why, n, saved, back ? "%s (the file is unchanged)" : "%s (its old text is in %s)",
				  strerror(saved), tmp);
			if (!back) {
				close(fd);
				free(tmp);
				free(old);
				return rc;
			}
		}
		if (close(fd) != 0 && rc == 0)
			rc = fail(why, n, errno, "%s", strerror(errno));
	}
	unlink(tmp);
	free(tmp);
	free(old);
	return rc;
}

/* A new regular file, or one with a single link: a temporary file beside
 * it takes the text, its mode and owner, and is renamed over it. */
static int replace_file(const char *path, const struct stat *st, const char *data, size_t len, char *why, size_t n)
{
	char *tmp = NULL;
	int fd = open_temp(path, &tmp);
	if (fd < 0)
		return fail(why, n, errno, "%s", strerror(errno));
	bool ok = write_all(fd, data, len);
	if (ok && st) {
		if (fchown(fd, st->st_uid, st->st_gid) != 0)
			(void)!fchown(fd, (uid_t)-1, st->st_gid);
		ok = fchmod(fd, st->st_mode & 07777) == 0;
	}
	ok = ok && fsync(fd) == 0;
	int saved = errno;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		if (ok)
			saved = errno;
		unlink(tmp);
		free(tmp);
		return fail(why, n, saved, "%s", strerror(saved));
	}
	free(tmp);
	return 0;
}

int file_write_safe(const char *path, const char *data, size_t len, const char *input, char *why, size_t whylen)
{
	if (why && whylen)
		why[0] = '\0';
	char *target = resolve_links(path);
	if (!target)
		return fail(why, whylen, ELOOP, "%s", strerror(ELOOP));
	struct stat st;
	bool exists = stat(target, &st) == 0;
	int rc;
	if (!exists && errno != ENOENT) {
		rc = fail(why, whylen, errno, "%s", strerror(errno));
	} else if (!exists) {
		rc = replace_file(target, NULL, data, len, why, whylen);
	} else {
		struct stat in;
		if (input && stat(input, &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino)
			rc = fail(why, whylen, EEXIST, "it is the input file");
		else if (S_ISDIR(st.st_mode))
			rc = fail(why, whylen, EISDIR, "%s", strerror(EISDIR));
		else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
			rc = write_through(target, &st, data, len, why, whylen);
		else if (!S_ISREG(st.st_mode))
			rc = fail(why, whylen, EINVAL, "not a regular file, character device or FIFO");
		else if (!(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) || access(target, W_OK) != 0)
			rc = fail(why, whylen, EACCES, "it is read-only (mode %04o)", (unsigned)(st.st_mode & 07777));
		else if (st.st_nlink > 1)
			rc = rewrite_in_place(target, &st, data, len, why, whylen);
		else
			rc = replace_file(target, &st, data, len, why, whylen);
	}
	int saved = errno;
	free(target);
	errno = saved;
	return rc;
}

int file_write_atomic(const char *path, const char *data, size_t len)
{
	return file_write_safe(path, data, len, NULL, NULL, 0);
}

bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}
