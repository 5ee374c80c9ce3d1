/* io_opts_table: the `io:` step's options, one row each (docs/steps/io.md
 * explains them at length; docs/options.md is generated from these rows). */
#include "io_opts_table.h"

#include "io_engine.h"

#define ROWS(a) (a), sizeof(a) / sizeof((a)[0])

const char *const io_rw_values[] = {"read",   "write", "randread", "randwrite",
                                    "randrw", "trim",  "randtrim", NULL};
const char *const io_cache_values[] = {"keep", "drop", "invalidate", NULL};
const char *const io_prepare_values[] = {"auto", "layout", "none", NULL};
const char *const io_data_values[] = {"random", "zero", NULL};
const char *const io_file_service_values[] = {"roundrobin", "random", "sequential", NULL};
const char *const io_op_values[] = {"none", "create", "stat", "unlink", "open-close", "mkdir", NULL};
const char *const io_rate_process_values[] = {"linear", "poisson", NULL};
const char *const io_ss_metric_values[] = {"iops", "bw", NULL};
/* The names of io_engines[] (io_engine.c), which the parser reads: both
 * are made from IO_ENGINE_LIST (io_engine.h). */
#define IO_ENGINE_NAME(NAME) #NAME,
static const char *const engine_values[] = {IO_ENGINE_LIST(IO_ENGINE_NAME) NULL};

#define SIZE_OR_DIRS(what)                                                                                   \
	"{\"anyOf\":[" what ",{\"type\":\"object\",\"properties\":{\"read\":" what ",\"write\":" what        \
	"},\"additionalProperties\":false}]}"
#define SIZE_SCHEMA "{\"type\":[\"integer\",\"string\"]}"
#define INT_SCHEMA  "{\"type\":\"integer\",\"minimum\":1}"

/* clang-format off */
static const struct opt_desc io_rows[] = {
    {"rw", OPT_ENUM, NULL, "read", io_rw_values, "access pattern; trim/randtrim discard blocks", 0, NULL, NULL, NULL},
    {"mix", OPT_INT, "%", "50", NULL, "randrw only: percentage of reads (0 to 100)", 0, NULL, NULL, "0..100"},
    {"bs", OPT_SIZE, "bytes", "4KiB", NULL, "bytes per I/O (at most 1 GiB)", 0, NULL, NULL, NULL},
    {"size", OPT_SIZE, "bytes", "1GiB", NULL, "size of each job's file; a multiple of bs", 0, NULL, NULL, NULL},
    {"io_size", OPT_SIZE, "bytes", "size", NULL, "bytes each job moves (rounded down to whole blocks); sequential I/O wraps around the file", 0, NULL, NULL, NULL},
    {"runtime", OPT_DURATION, "s", NULL, NULL, "stop after this long (measured after the ramp)", 0, NULL, NULL, NULL},
    {"time_based", OPT_BOOL, NULL, "false", NULL, "loop over the file until runtime is up, ignoring io_size; needs runtime", 0, NULL, NULL, NULL},
    {"ramp", OPT_DURATION, "s", "0", NULL, "run this long first and leave it out of the figures", 0, NULL, NULL, NULL},
    {"direct", OPT_BOOL, NULL, "false", NULL, "O_DIRECT with aligned buffers; bs must be a multiple of 512 and of the file system's alignment", 0, NULL, NULL, NULL},
    {"sync", OPT_ANY, NULL, "none", NULL, "none, end (fdatasync at the end), every N (writes), dsync (O_DSYNC) or sync (O_SYNC)", 0, NULL,
     "{\"anyOf\":[{\"enum\":[\"none\",\"end\",\"dsync\",\"sync\"]},{\"type\":\"integer\",\"minimum\":1},{\"type\":\"string\",\"pattern\":\"^(every\\\\s*)?[0-9]+$\"}]}", NULL},
    {"cache", OPT_ENUM, NULL, "keep", io_cache_values, "the page cache before the step: keep it, drop it (all of it) or invalidate the file's pages", 0, NULL, NULL, NULL},
    {"engine", OPT_ENUM, NULL, "io_uring", engine_values, "I/O engine (docs/steps/io.md, Engines)", 0, NULL, NULL, NULL},
    {"iodepth", OPT_INT, NULL, "1", NULL, "I/Os in flight per job (1 to 4096; io_uring and libaio)", 0, NULL, NULL, "1..4096"},
    {"jobs", OPT_INT, NULL, "1", NULL, "threads, each with its own file (1 to 256)", 0, NULL, NULL, "1..256"},
    {"file", OPT_STRING, NULL, "benchgrid-io.dat", NULL, "file name within the target (no absolute paths, no ..), or \"@device\" for the target's raw device", 0, NULL, NULL, NULL},
    {"keep", OPT_BOOL, NULL, "false", NULL, "keep the files after the step", 0, NULL, NULL, NULL},
    {"prepare", OPT_ENUM, NULL, "auto", io_prepare_values, "lay the file out before reading: auto (when reading), layout (always) or none", 0, NULL, NULL, NULL},
    {"data", OPT_ENUM, NULL, "random", io_data_values, "content written: incompressible random bytes or zeros", 0, NULL, NULL, NULL},
    {"interval", OPT_DURATION, "s", "1s", NULL, "sampling period of the time series (at least 10ms)", 0, NULL, NULL, NULL},
    {"verify", OPT_BOOL, NULL, "false", NULL, "write a self-checking pattern and check what is read back", 0, NULL, NULL, NULL},
    {"seed", OPT_INT, NULL, "1", NULL, "seed of the random offsets, the random data and the verify pattern (>= 0)", 0, NULL, NULL, "0.."},
    {"nrfiles", OPT_INT, NULL, "1", NULL, "files per job, named FILE.JOB.K (1 to 1000000)", 0, NULL, NULL, "1..1000000"},
    {"filesize", OPT_ANY, "bytes", "size / nrfiles", NULL, "each file's size, or a range MIN-MAX drawn from the seed", 0, NULL, SIZE_SCHEMA, NULL},
    {"file_service", OPT_ENUM, NULL, "roundrobin", io_file_service_values, "which file the next I/O goes to", 0, NULL, NULL, NULL},
    {"openfiles", OPT_INT, NULL, "nrfiles", NULL, "files kept open at once per job", 0, NULL, NULL, "1..1000000"},
    {"op", OPT_ENUM, NULL, "none", io_op_values, "a metadata workload instead of data I/O", 0, NULL, NULL, NULL},
    {"dirs", OPT_INT, NULL, "1", NULL, "with op: directories per job", 0, NULL, NULL, "1..1000000"},
    {"files_per_dir", OPT_INT, NULL, "1000", NULL, "with op: entries per directory", 0, NULL, NULL, "1..1000000"},
    {"lat_log", OPT_BOOL, NULL, "false", NULL, "write every measured I/O's latency to cells/ID/STEP.lat.csv", 0, NULL, NULL, NULL},
    {"hist_log", OPT_DURATION, "s", NULL, NULL, "write one latency histogram per period to cells/ID/STEP.hist.csv (at least 10ms)", 0, NULL, NULL, NULL},
    {"rate", OPT_ANY, "bytes/s", NULL, NULL, "cap each job's bandwidth (binary units), one value or {read, write}", 0, NULL, SIZE_OR_DIRS(SIZE_SCHEMA), NULL},
    {"rate_iops", OPT_ANY, "IOPS", NULL, NULL, "cap each job's I/Os per second, one value or {read, write}", 0, NULL, SIZE_OR_DIRS(INT_SCHEMA), NULL},
    {"rate_process", OPT_ENUM, NULL, "linear", io_rate_process_values, "evenly spaced I/Os, or exponentially distributed gaps of the same mean", 0, NULL, NULL, NULL},
    {"thinktime", OPT_DURATION, "s", NULL, NULL, "pause this long after every thinktime_blocks I/Os", 0, NULL, NULL, NULL},
    {"thinktime_blocks", OPT_INT, NULL, "1", NULL, "I/Os between pauses; needs thinktime", 0, NULL, NULL, "1..2147483647"},
    {"cpus_allowed", OPT_STRING, NULL, "no pinning", NULL, "pin each job thread to these CPUs, e.g. \"0-1,3\"", 0, NULL, NULL, NULL},
    {"nice", OPT_INT, NULL, "as inherited", NULL, "nice value of each job thread (-20 to 19; below 0 needs root)", 0, NULL, NULL, "-20..19"},
    {"ioprio", OPT_ANY, NULL, "as inherited", NULL, "I/O priority of each job thread: rt/N, be/N (N 0 to 7) or idle", 0, NULL,
     "{\"type\":\"string\",\"pattern\":\"^(none|idle|(rt|be)(/[0-7])?)$\"}", NULL},
    {"random_distribution", OPT_ANY, NULL, "uniform", NULL, "random modes: uniform, zipf:THETA, pareto:H, normal:SIGMA% or zoned:IO/RANGE:...", 0, NULL,
     "{\"type\":\"string\",\"pattern\":\"^(uniform|random|zipf:|pareto:|normal:|zoned:)\"}", NULL},
    {"bssplit", OPT_STRING, NULL, NULL, NULL, "SIZE/PCT:SIZE/PCT:...: each I/O's size drawn from these weights instead of bs", 0, NULL, NULL, NULL},
    {"fsync_on_close", OPT_BOOL, NULL, "false", NULL, "fsync each job's file (or device) after its last I/O, inside the measured time", 0, NULL, NULL, NULL},
    {"precondition", OPT_MAP, NULL, NULL, NULL, "before the measured part: a sequential fill, then passes of random overwrite", 0, "io.precondition", NULL, NULL},
    {"steady_state", OPT_MAP, NULL, NULL, NULL, "end the step early once IOPS or bandwidth is steady; needs runtime", 0, "io.steady_state", NULL, NULL},
};

static const struct opt_desc precondition_rows[] = {
    {"passes", OPT_INT, NULL, "1", NULL, "passes of random overwrite after the fill (0 to 100)", 0, NULL, NULL, "0..100"},
};

static const struct opt_desc steady_state_rows[] = {
    {"metric", OPT_ENUM, NULL, "iops", io_ss_metric_values, "what must be steady", 0, NULL, NULL, NULL},
    {"slope", OPT_STRING, "%", NULL, NULL, "the least-squares slope over the window, at most this percent of the mean", 0, NULL, NULL, NULL},
    {"range", OPT_STRING, "%", NULL, NULL, "max - min over the window, at most this percent of the mean", 0, NULL, NULL, NULL},
    {"duration", OPT_DURATION, "s", NULL, NULL, "the window that must be steady", OPT_REQUIRED, NULL, NULL, NULL},
    {"ramp", OPT_DURATION, "s", "0", NULL, "time before the window may start", 0, NULL, NULL, NULL},
};
/* clang-format on */

const struct opt_table io_opt_table = {
    "io", "io: (step)", "The native I/O workload (docs/steps/io.md).", ROWS(io_rows), false,
};

const struct opt_table io_precondition_table = {
    "io.precondition", "io: precondition:", "", ROWS(precondition_rows), false,
};

const struct opt_table io_steady_state_table = {
    "io.steady_state", "io: steady_state:", "Give slope or range, not both.", ROWS(steady_state_rows), false,
};
