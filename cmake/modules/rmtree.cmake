# rmtree (engine/util): the delete that never follows a link nor crosses a
# mount (issue 29, items 3 and 4). The unit test wraps openat to rename a
# folder at one exact moment of the walk (see the test's comment).
bg_unit_test(test_rmtree SOURCES tests/unit/test_rmtree.c LABELS core TIMEOUT 120)
if(TARGET test_rmtree)
  target_link_options(test_rmtree PRIVATE -Wl,--wrap=openat)
endif()
# Real bind mounts on and inside the folders a teardown and `cleanup`
# remove, and the exit status of both when they cannot.
bg_script_test(rmtree_mounts tests/integration/rmtree_mounts.sh LABELS "integration;root;fs" TIMEOUT 180)
# A step that makes 25,000 nested folders: teardown and, after kill -9,
# `cleanup` remove them with a small stack and few descriptors.
bg_script_test(rmtree_deep tests/integration/rmtree_deep.sh LABELS "integration;root;fs" TIMEOUT 180)
