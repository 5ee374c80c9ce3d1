/* replay_main: run a fuzz target's LLVMFuzzerTestOneInput once on each file
 * named on the command line (files in a named directory too), without
 * libFuzzer: the regression inputs and seeds of tests/fuzz replay in every
 * build (gcc, ASan), not only in the clang fuzz build. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 4096, n = 0, got;
	uint8_t *buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	fclose(f);
	if (!buf)
		return -1;
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int replay(const char *path, int *count)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return replay_file(path);
	}
	struct dirent **ents;
	int n = scandir(path, &ents, NULL, alphasort), rc = 0;
	if (n < 0) {
		perror(path);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char sub[4096];
		if (ents[i]->d_name[0] != '.' &&
		    (size_t)snprintf(sub, sizeof(sub), "%s/%s", path, ents[i]->d_name) < sizeof(sub) &&
		    replay(sub, count) < 0)
			rc = -1;
		free(ents[i]);
	}
	free(ents);
	return rc;
}

int main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	int rc = 0, count = 0;
	for (int i = 1; i < argc; i++)
		if (replay(argv[i], &count) < 0)
			rc = 1;
	printf("%s: %d input(s) replayed\n", argv[0], count);
	return rc;
}
