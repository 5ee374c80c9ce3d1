# packaging: --version, the man pages and help topics, the shell completions,
# and the Debian package (cmake/install.cmake, cmake/version.cmake,
# scripts/md2man, completions/).
bg_script_test(man tests/integration/man.sh LABELS "cli;docs" TIMEOUT 60)
bg_script_test(version tests/integration/version.sh LABELS "cli" TIMEOUT 60)
foreach(sh bash zsh)
  bg_script_test(completion.${sh} tests/integration/completion.sh ARGS ${sh} LABELS "cli" TIMEOUT 60)
endforeach()
# Builds the .deb in BUILD/package (a build folder of its own), installs it
# with dpkg -i, runs it, removes it: root, and one at a time (dpkg's lock).
bg_script_test(package tests/integration/package.sh LABELS "package;root" TIMEOUT 300)
set_tests_properties(package PROPERTIES RUN_SERIAL TRUE)
