# docs: the help topics and man pages, made from docs/ by scripts/md2man
# (included by engine/cli/CMakeLists.txt, which embeds the topics in the
# binary and builds the man pages; cmake/install.cmake installs them).
#
# A topic is NAME=FILE: `benchgrid help NAME` prints FILE as plain text, and
# benchgrid-scenario(5) is the topics in this order.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(BG_MD2MAN ${PROJECT_SOURCE_DIR}/scripts/md2man)
set(BG_HELP_TOPICS
  scenario=${PROJECT_SOURCE_DIR}/docs/scenario.md
  target=${PROJECT_SOURCE_DIR}/docs/sections/target.md
  postgres=${PROJECT_SOURCE_DIR}/docs/sections/postgres.md
  io=${PROJECT_SOURCE_DIR}/docs/steps/io.md
  pgbench=${PROJECT_SOURCE_DIR}/docs/steps/pgbench.md
  exec=${PROJECT_SOURCE_DIR}/docs/steps/exec.md
  monitor=${PROJECT_SOURCE_DIR}/docs/sections/monitor.md
  lua=${PROJECT_SOURCE_DIR}/docs/sections/lua.md
  results=${PROJECT_SOURCE_DIR}/docs/results.md)
# compare and the intervals of repeats (`benchgrid help statistics`).
list(APPEND BG_HELP_TOPICS statistics=${PROJECT_SOURCE_DIR}/docs/statistics.md)
list(APPEND BG_HELP_TOPICS reports=${PROJECT_SOURCE_DIR}/docs/reports.md) # report.html, numbers, charts
# The option reference generated from the option tables, and editor help.
list(APPEND BG_HELP_TOPICS options=${PROJECT_SOURCE_DIR}/docs/options.md editors=${PROJECT_SOURCE_DIR}/docs/editors.md)
# From the quickstart to a sweep of one's own (`benchgrid help tutorial`).
list(APPEND BG_HELP_TOPICS tutorial=${PROJECT_SOURCE_DIR}/docs/tutorial.md)
# Whom benchgrid trusts, what it changes and the consent each change needs.
list(APPEND BG_HELP_TOPICS security=${PROJECT_SOURCE_DIR}/docs/security.md)
set(BG_HELP_FILES "")
foreach(t ${BG_HELP_TOPICS})
  string(REGEX REPLACE "^[^=]*=" "" f "${t}")
  list(APPEND BG_HELP_FILES ${f})
endforeach()
set(BG_MAN_DIR ${PROJECT_BINARY_DIR}/man)
set(BG_MAN_PAGES ${BG_MAN_DIR}/benchgrid.1 ${BG_MAN_DIR}/benchgrid-scenario.5)
