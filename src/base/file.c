/* file.c: whole-file reads and atomic writes. */
#define _POSIX_C_SOURCE 200809L
#include "base.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		errno = EISDIR;
		return NULL;
	}
	Buf b = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_putn(&b, chunk, n);
	int err = ferror(f);
	fclose(f);
	if (err) {
		buf_free(&b);
		errno = EIO;
		return NULL;
	}
	if (len)
		*len = b.len;
	return buf_detach(&b);
}

int file_write_atomic(const char *path, const char *data, size_t len)
{
	size_t n = strlen(path);
	char *tmp = xmalloc(n + 16);
	snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		done += (size_t)w;
	}
	int ok = done == len && fsync(fd) == 0;
	ok = (close(fd) == 0) && ok;
	if (ok)
		chmod(tmp, 0644);
	if (!ok || rename(tmp, path) != 0) {
		int saved = errno;
		unlink(tmp);
		free(tmp);
		errno = saved;
		return -1;
	}
	free(tmp);
	return 0;
}

bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}
