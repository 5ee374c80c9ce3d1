/* io_engine: the table of I/O engines (see io_engine.h). */
#include "io_engine.h"

#include <stddef.h>
#include <string.h>

#define IO_ENGINE_ROW(NAME) &io_engine_##NAME,
const struct io_engine_ops *const io_engines[] = {IO_ENGINE_LIST(IO_ENGINE_ROW) NULL};

/* Is `word` one of the space-separated words of `list`? */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; p && *p;) {
		size_t k = strcspn(p, " ");
		if (k == n && !strncmp(p, word, n))
			return true;
		p += k;
		p += strspn(p, " ");
	}
	return false;
}

const char *io_engine_for_fio(const char *fio_ioengine)
{
	for (size_t i = 0; io_engines[i]; i++)
		if (!strcmp(io_engines[i]->name, fio_ioengine) ||
		    has_word(io_engines[i]->fio_also, fio_ioengine))
			return io_engines[i]->name;
	return NULL;
}
