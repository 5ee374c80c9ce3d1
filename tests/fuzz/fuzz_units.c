/* fuzz_units: sizes, durations and plain numbers as users write them
 * (engine/base/units.c), and formatting what they parse. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	char err[128], buf[64];
	uint64_t bytes;
	double secs, num;
	int64_t i;
	if (units_parse_size(s, &bytes, err, sizeof(err)) == 0)
		units_format_size(bytes, buf, sizeof(buf)); /* human, rounded: not parsed back */
	if (units_parse_duration(s, &secs, err, sizeof(err)) == 0) {
		if (!(secs >= 0))
			abort(); /* negative or NaN durations are refused */
		units_format_duration(secs, buf, sizeof(buf));
	}
	(void)units_parse_size(s, &bytes, NULL, 0);
	(void)units_parse_duration(s, &secs, NULL, 0);
	(void)units_has_size_suffix(s);
	(void)units_has_duration_suffix(s);
	(void)units_is_int(s, &i);
	(void)units_is_number(s, &num);
	free(s);
	return 0;
}
