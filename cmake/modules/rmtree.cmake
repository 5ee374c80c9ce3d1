# rmtree (engine/util): the delete that never follows a link nor crosses a
# mount (issue 29, items 3 and 4). The unit test wraps openat to rename a
# folder at one exact moment of the walk (see the test's comment).
bg_unit_test(test_rmtree SOURCES tests/unit/test_rmtree.c LABELS core TIMEOUT 120)
if(TARGET test_rmtree)
  target_link_options(test_rmtree PRIVATE -Wl,--wrap=openat)
endif()
