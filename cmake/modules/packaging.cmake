# packaging: --version, the man pages and help topics, the shell completions,
# and the Debian package (cmake/install.cmake, cmake/version.cmake,
# scripts/md2man, completions/).
bg_script_test(man tests/integration/man.sh LABELS "cli;docs" TIMEOUT 60)
bg_script_test(version tests/integration/version.sh LABELS "cli" TIMEOUT 60)
foreach(sh bash zsh)
  bg_script_test(completion.${sh} tests/integration/completion.sh ARGS ${sh} LABELS "cli" TIMEOUT 60)
endforeach()
# Packs the build under test into a .deb (cpack into a folder of its own),
# installs it with dpkg -i, runs it, removes it: root. No other test runs
# dpkg or reads what it installs (tests run the build's binary). It compiles
# nothing (it used to build its own copy: 150 s on the timing lock's chain,
# the longest test of CI), so it no longer holds the timing lock: about one
# core for 30 s, like any test beside the timed ones.
bg_script_test(package tests/integration/package.sh LABELS "package;root" TIMEOUT 300)
