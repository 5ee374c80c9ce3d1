/* build_info: which build of benchgrid this is, for `--version` and for the
 * "build" object of results.json: the version, the git commit of the sources
 * (with "-dirty" when they differed from it; "unknown" without git), the
 * CMake build type and the compiler. Generated at every build
 * (cmake/version.cmake writes its definition into the build folder, and only
 * when the text changed), so a results file names exactly what produced it. */
#ifndef BENCHGRID_BUILD_INFO_H
#define BENCHGRID_BUILD_INFO_H

struct build_info {
	const char *version;  /* "0.1.0" */
	const char *commit;   /* "8e85389a1b2c", "8e85389a1b2c-dirty" or "unknown" */
	const char *type;     /* "RelWithDebInfo" */
	const char *compiler; /* "GNU 12.2.0" */
};

const struct build_info *build_info(void);

#endif
