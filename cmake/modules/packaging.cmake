# packaging: --version, the man pages and help topics, the shell completions,
# and the Debian package (cmake/install.cmake, cmake/version.cmake,
# scripts/md2man, completions/).
bg_script_test(man tests/integration/man.sh LABELS "cli;docs" TIMEOUT 60)
bg_script_test(version tests/integration/version.sh LABELS "cli" TIMEOUT 60)
foreach(sh bash zsh)
  bg_script_test(completion.${sh} tests/integration/completion.sh ARGS ${sh} LABELS "cli" TIMEOUT 60)
endforeach()
# Builds the .deb in BUILD/package (a build folder of its own), installs it
# with dpkg -i, runs it, removes it: root. No other test runs dpkg or reads
# what it installs (tests run the build's binary), so it shares the machine
# with the tests that measure nothing; its compiler keeps away from the
# timed ones (the timing lock, tests/CMakeLists.txt). It was RUN_SERIAL:
# 81 s alone under stress-ng, the largest serial test after the repro ones.
bg_script_test(package tests/integration/package.sh LABELS "package;root" TIMEOUT 300)
set_tests_properties(package PROPERTIES RESOURCE_LOCK timing)
