# io: many files per job and metadata operations (issue 15): a directory
# target, fio's filecreate engine as the oracle, and a loop-mounted ext4 (root).
bg_script_test(io_files tests/integration/io_files.sh LABELS integration;io TIMEOUT 180)
bg_script_test(io_files.fio tests/integration/io_files.sh ARGS fio LABELS integration;io;fio TIMEOUT 120)
bg_script_test(io_files.ext4 tests/integration/io_files.sh ARGS ext4 LABELS integration;io;root;loop TIMEOUT 180)
