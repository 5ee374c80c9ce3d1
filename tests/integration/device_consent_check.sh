#!/usr/bin/env bash
# `check` and `plan` refuse a scenario that would change the disk holding
# the root file system (issue 29, item 2): formatting it (kind: device,
# destroy: true), writing to it raw, throttling it (model:) or changing its
# queue settings, each with the rule and the device's file:line:col, even
# with every consent given. Reading it raw needs no consent and passes.
# Only check and plan run here: nothing is set up, nothing is changed.
# Skipped (77) where / is on no block device (a container's overlay).
set -u
bg=${BENCHGRID:?}
root=$(awk '$5 == "/" { src = $(NF - 1) } END { print src }' /proc/self/mountinfo)
if [[ $root != /dev/* || ! -b $root ]]; then
	echo "SKIP: / is on '$root', not a block device"
	exit 77
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

# refused NAME WHAT PATTERN: check and plan exit 2 with PATTERN in stderr
refused() {
	local cmd
	for cmd in check plan; do
		"$bg" "$cmd" "$t/$1.yaml" >"$t/$1.$cmd.out" 2>"$t/$1.$cmd.err"
		local rc=$?
		[[ $rc -eq 2 ]] && ok "$2: $cmd refuses" || bad "$2: $cmd exit status $rc, want 2"
		if grep -q -- "$3" "$t/$1.$cmd.err"; then
			ok "$2: $cmd names the rule at the position"
		else
			bad "$2: $cmd: '$3' not in:"
			sed 's/^/      /' "$t/$1.$cmd.err"
		fi
	done
}

cat >"$t/format.yaml" <<YAML
name: x
target: {kind: device, path: $root, destroy: true}
steps:
  - {name: s, exec: "true"}
YAML
refused format "format the root disk" \
	"format.yaml:2:30: error: target.path: refusing to format $root: rule 'root filesystem'"

cat >"$t/write.yaml" <<YAML
name: x
target:
  kind: device
  device: $root
  destroy: true
steps:
  - {name: w, io: {file: "@device", rw: write, bs: 4KiB, size: 4KiB}}
YAML
refused write "write the root disk raw" \
	"write.yaml:4:11: error: target.device: refusing to write to $root: rule 'root filesystem'"

cat >"$t/throttle.yaml" <<YAML
name: x
target:
  kind: device
  path: $root
  fs: none
  tune_disk: true
  model: {read_bps: 1MB, write_iops: 20}
steps:
  - {name: r, io: {file: "@device", rw: read, bs: 4KiB, size: 4KiB}}
YAML
refused throttle "throttle the root disk" \
	"throttle.yaml:4:9: error: target.path: refusing to throttle $root: rule 'root filesystem'"

cat >"$t/queue.yaml" <<YAML
name: x
target: {kind: device, path: $root, fs: none, tune_disk: true}
queue: {read_ahead_kb: 0}
steps:
  - {name: r, io: {file: "@device", rw: read, bs: 4KiB, size: 4KiB}}
YAML
refused queue "retune the root disk" \
	"queue.yaml:2:30: error: target.path: refusing to change the queue settings of $root: rule 'root filesystem'"

# a named target too
cat >"$t/named.yaml" <<YAML
name: x
targets:
  slow: {kind: device, path: $root, fs: none, tune_disk: true, model: {write_bps: 1MB}}
steps:
  - {name: s, exec: "true"}
YAML
refused named "throttle the root disk as a named target" \
	"named.yaml:3:30: error: targets.slow.path: refusing to throttle $root: rule 'root filesystem'"

# reading it raw changes nothing: no consent, no rule
cat >"$t/read.yaml" <<YAML
name: x
target: {kind: device, path: $root, fs: none}
steps:
  - {name: r, io: {file: "@device", rw: read, bs: 4KiB, size: 4KiB}}
YAML
"$bg" check "$t/read.yaml" >"$t/read.out" 2>&1 && ok "read the root disk raw: check passes" ||
	{ bad "read the root disk raw: check refuses"; cat "$t/read.out"; }

[[ $fail -eq 0 ]] && echo "all checks passed" || echo "some checks failed"
exit $fail
