# install: `cmake --install BUILD [--prefix P]` and `cpack -G DEB`.
#
# Everything goes to GNUInstallDirs' places: the binary (the Lua library and
# the help topics are inside it: nothing at run time reads the source tree),
# the man pages benchgrid(1) and benchgrid-scenario(5) (made by
# scripts/md2man, engine/cli/CMakeLists.txt), the bash and zsh completions
# (completions/), and README.md, docs/ and examples/ under share/doc/benchgrid
# with the Debian changelog and copyright (packaging/debian/).
include(GNUInstallDirs)
include(${PROJECT_SOURCE_DIR}/cmake/docs.cmake) # BG_MAN_DIR
find_program(GZIP_EXE gzip REQUIRED)

# Compressed as Debian wants them (gzip -9n: no name nor time stamp, so two
# builds give the same bytes).
set(BG_GZ_DIR ${PROJECT_BINARY_DIR}/install)
set(BG_GZ_FILES "")
foreach(pair "${BG_MAN_DIR}/benchgrid.1;benchgrid.1.gz"
             "${BG_MAN_DIR}/benchgrid-scenario.5;benchgrid-scenario.5.gz"
             "${PROJECT_SOURCE_DIR}/packaging/debian/changelog;changelog.Debian.gz")
  list(GET pair 0 in)
  list(GET pair 1 out)
  add_custom_command(
    OUTPUT ${BG_GZ_DIR}/${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${BG_GZ_DIR}
    COMMAND sh -c "${GZIP_EXE} -9nc \"$0\" >\"$1\"" ${in} ${BG_GZ_DIR}/${out}
    DEPENDS ${in}
    VERBATIM)
  list(APPEND BG_GZ_FILES ${BG_GZ_DIR}/${out})
endforeach()
add_custom_target(install_files ALL DEPENDS ${BG_GZ_FILES})
add_dependencies(install_files man) # the pages are made in engine/cli/

# benchgrid-latdev: the latency model's FUSE server (engine/fixtures/latdev), beside benchgrid.
install(TARGETS benchgrid benchgrid-latdev RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${BG_GZ_DIR}/benchgrid.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${BG_GZ_DIR}/benchgrid-scenario.5.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man5)
install(FILES completions/benchgrid.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME benchgrid)
install(FILES completions/_benchgrid DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES README.md ${BG_GZ_DIR}/changelog.Debian.gz packaging/debian/copyright
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md")
install(DIRECTORY examples DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.yaml" PATTERN "README.md")

# The Debian package. Depends come from what the binary links
# (dpkg-shlibdeps: libyaml, liblua5.4, libpq5, liburing2, libjansson4, libc);
# tests/packaging/package.sh checks them against ldd. The programs a
# scenario may start are recommended: the managed PostgreSQL, fio for
# `exec:` cross-checks, mkfs.xfs and mkfs.btrfs for loop targets.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME benchgrid)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "benchgrid maintainers <maintainers@users.noreply.a-seed-01cd748b.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "benchmark-scenario interpreter for storage and PostgreSQL")
# The long description: CPack puts the summary above it and indents it.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "benchgrid reads one YAML scenario, expands its parameters into a
matrix of cells, provisions each cell (a filesystem on a loop device or a
disk, a PostgreSQL cluster with the cell's settings, data at a scale), runs
native workloads (io_uring I/O, a pgbench-compatible libpq load driver,
external commands), calls Lua 5.4 hooks, and writes CSV, Markdown, JSON and
SVG reports with published figures beside measured ones.")
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "postgresql, fio, xfsprogs, btrfs-progs")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, slurm-client")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
include(CPack)
