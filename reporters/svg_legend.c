/* svg_legend: a chart's legend (see svg_legend.h). */
#include "svg_legend.h"

#include <string.h>

size_t svg_legend_wrap(const char *l, size_t at[LEGEND_LINES], size_t len[LEGEND_LINES], bool *cut)
{
	size_t n = 0, i = 0, L = strlen(l);
	*cut = false;
	while (i < L && n < LEGEND_LINES) {
		size_t take = L - i;
		if (take > LEGEND_COLS && n + 1 == LEGEND_LINES) {
			take = LEGEND_COLS - 1; /* room for the ellipsis */
			*cut = true;
		} else if (take > LEGEND_COLS) {
			take = LEGEND_COLS;
			for (size_t k = LEGEND_COLS; k > LEGEND_COLS / 3; k--)
				if (l[i + k] == ' ') {
					take = k;
					break;
				}
		}
		/* do not split a UTF-8 character */
		while (take > 1 && i + take < L && ((unsigned char)l[i + take] & 0xC0) == 0x80)
			take--;
		at[n] = i;
		len[n++] = take;
		i += take;
		while (i < L && l[i] == ' ')
			i++;
	}
	return n;
}

double svg_legend_entry_h(size_t nl)
{
	return LEGEND_STEP + LEGEND_LINE * (double)(nl > 1 ? nl - 1 : 0);
}
