#!/usr/bin/env bash
# The output directory on a shared file system that squashes root
# (docs/results.md#ownership).
#
#   outdir_squash.sh fuse   root squash as a FUSE file system shows it to
#                           benchgrid: a bindfs mount (the kernel's FUSE) of a
#                           directory of nobody on which every new file and
#                           directory is created as nobody (65534) and chown
#                           is refused, as on NFS with root_squash. A run as
#                           root is accepted with one note, --resume and
#                           report work, every file is nobody's; the cases
#                           that must still be refused are (local directory
#                           of nobody, group-writable, owned by a third user,
#                           a planted cells/ of a third user, a non-root user
#                           in someone else's directory), and no probe file
#                           is ever left behind.
#   outdir_squash.sh nfs    the same run on a real NFS export with
#                           root_squash, mounted over loopback with the
#                           kernel's NFS client. Skipped (77) where the
#                           kernel has no NFS client or server or the NFS
#                           tools are missing (this machine's kernel has
#                           neither: no CONFIG_NFS_FS, no modules).
# Needs root (mounts); run it under /tmp/benchgrid-heavy.lock.
set -u
bg=${BENCHGRID:?}
mode=${1:-fuse}
if [[ $(id -u) -ne 0 ]]; then
	echo "skip: needs root (mounts)"
	exit 77
fi
fail=0 pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
t=$(mktemp -d)
chmod 0755 "$t"
mnt=$t/mnt
mounted=() # unmounted in this order, after the client's mount
cleanup() {
	[[ -n ${client:-} ]] && { umount "$client" 2>/dev/null || umount -l "$client"; }
	[[ -n ${exported:-} ]] && exportfs -u "127.0.0.1:$exported"
	[[ -n ${mountd:-} ]] && kill "$mountd" && wait "$mountd"
	[[ -n ${nfsd_started:-} ]] && rpc.nfsd 0
	for m in "${mounted[@]}"; do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
	rm -rf --one-file-system "$t"
}
trap cleanup EXIT
mkdir -p "$t/w" "$t/state" "$mnt"
export BENCHGRID_STATE=$t/state
cat >"$t/s.yaml" <<'Y'
name: squash
target: {kind: dir}
matrix:
  x: [1, 2]
steps:
  - name: probe
    exec: {command: "echo bytes ${x}"}
Y
run() { "$bg" run --work-dir "$t/w" -q "$@" "$t/s.yaml" >"$t/out" 2>&1; }
no_probe_left() { [[ -z "$(find "$1" -name '.ownerprobe.*' 2>/dev/null)" ]]; }
ncells() {
	python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cells"]))' "$1" 2>/dev/null
}

# A run as root into DIR (not there yet) on the squashed file system whose
# files land in SRC (the server's side): SRC's files all owned by 65534.
squashed_run() { # DIR SRC
	local dir=$1 src=$2
	run -o "$dir"
	local rc=$?
	[[ $rc -eq 0 ]] && [[ $(grep -c 'note: output directory .* owned by uid 65534' "$t/out") -eq 1 ]] &&
		grep -q 'root is squashed' "$t/out" &&
		ok "run as root into a squashed directory: exit 0, one note" ||
		{ bad "run as root into a squashed directory: exit $rc"; cat "$t/out"; }
	[[ $(ncells "$dir/results.json") == 2 ]] && [[ -s "$dir/journal.jsonl" ]] &&
		[[ -s "$dir/report.md" ]] && [[ $(ls "$dir/cells" | wc -l) -eq 2 ]] &&
		ok "results.json (2 cells), journal, report.md, cells/" ||
		{ bad "results missing: $(ls -R "$dir" | head -20)"; }
	local foreign
	foreign=$(find "$src" ! -uid 65534 -printf '%u %p\n')
	[[ -z $foreign && -n "$(find "$src" -name results.json)" ]] &&
		ok "every file and directory on the server's side is nobody's" ||
		bad "files not owned by nobody: $foreign"
	no_probe_left "$src" && ok "no probe file left" || bad "probe file left in $src"
	run --resume "$dir"
	rc=$?
	[[ $rc -eq 0 ]] && ok "--resume of the squashed directory: exit 0" ||
		{ bad "--resume: exit $rc"; cat "$t/out"; }
	"$bg" report "$dir" >"$t/out" 2>&1 && ok "report DIR on the squashed directory" ||
		{ bad "report DIR"; cat "$t/out"; }
}

refused() { # WHAT GREP...: the last run exited 2 and said each GREP
	local what=$1 rc=$2
	shift 2
	local miss=
	for g in "$@"; do grep -q -- "$g" "$t/out" || miss+=" [$g]"; done
	[[ $rc -eq 2 && -z $miss ]] && ok "$what: refused (exit 2)" ||
		{ bad "$what: exit $rc, missing:$miss"; cat "$t/out"; }
}

if [[ $mode == nfs ]]; then
	# The kernel NFS client and server, and nfs-kernel-server's tools.
	modprobe -q nfs 2>/dev/null
	modprobe -q nfsd 2>/dev/null
	grep -qw nfs4 /proc/filesystems || grep -qw nfs /proc/filesystems ||
		{ echo "skip: the kernel has no NFS client (no nfs in /proc/filesystems, modprobe nfs failed)"; exit 77; }
	grep -qw nfsd /proc/filesystems ||
		{ echo "skip: the kernel has no NFS server (nfsd)"; exit 77; }
	for tool in exportfs rpc.nfsd rpc.mountd mount.nfs4; do
		command -v $tool >/dev/null || { echo "skip: $tool missing (nfs-kernel-server)"; exit 77; }
	done
	pgrep -x nfsd >/dev/null && { echo "skip: an NFS server runs on this machine already"; exit 77; }
	grep -q ' /proc/fs/nfsd ' /proc/mounts || { mount -t nfsd nfsd /proc/fs/nfsd && mounted+=(/proc/fs/nfsd); }
	mkdir -m 0755 "$t/export"
	chown 65534:65534 "$t/export"
	exportfs -o rw,sync,root_squash,anonuid=65534,anongid=65534,no_subtree_check,insecure,fsid=$RANDOM \
		"127.0.0.1:$t/export" || { echo "skip: exportfs failed"; exit 77; }
	exported=$t/export
	rpc.mountd -F -N 2 -N 3 -V 4 &
	mountd=$!
	rpc.nfsd -N 2 -N 3 -V 4 1 || { echo "skip: rpc.nfsd would not start"; exit 77; }
	nfsd_started=1
	mount -t nfs4 -o vers=4.2,sec=sys "127.0.0.1:$t/export" "$mnt" ||
		{ echo "skip: the loopback NFS mount failed"; exit 77; }
	client=$mnt
	squashed_run "$mnt/out" "$t/export"
	echo "$pass passed, $fail failed"
	[[ $fail -eq 0 ]]
	exit
fi

[[ -c /dev/fuse ]] || { echo "skip: no /dev/fuse"; exit 77; }
command -v bindfs >/dev/null || { echo "skip: bindfs missing (scripts/setup installs it)"; exit 77; }
src=$t/src
mkdir -m 0755 "$src"
chown 65534:65534 "$src"
bindfs -o allow_other --create-for-user=65534 --create-for-group=65534 --chown-deny --chgrp-deny \
	"$src" "$mnt" || { echo "skip: bindfs would not mount"; exit 77; }
mounted+=("$mnt")
touch "$mnt/f" && [[ $(stat -c %u "$src/f") == 65534 ]] && ! chown 0 "$mnt/f" 2>/dev/null ||
	{ echo "FAIL the bindfs mount does not squash root"; exit 1; }
rm -f "$mnt/f"

squashed_run "$mnt/out" "$src/out"

# A local directory of nobody: root's files there are root's (no squash).
mkdir -m 0755 "$t/nob" && chown 65534 "$t/nob"
run -o "$t/nob"
refused "local directory of nobody, as root" $? 'owned by uid 65534' 'root is not squashed'
[[ -z "$(ls -A "$t/nob")" ]] && ok "nothing left in it" || bad "left in it: $(ls -A "$t/nob")"

# On the squashed file system: group-writable (the usual chmod 777
# workaround), owned by a third user, a planted cells/ of a third user.
install -d -m 0775 -o 65534 -g 65534 "$src/gw"
run -o "$mnt/gw"
refused "group-writable directory of nobody" $? 'writable by its group' 'root is squashed to uid 65534'
install -d -m 0755 -o 65533 -g 65533 "$src/third"
run -o "$mnt/third"
refused "directory of uid 65533, files get 65534" $? 'owned by uid 65533' 'get uid 65534' 'root is squashed'
install -d -m 0755 -o 65534 -g 65534 "$src/planted" && install -d -m 0755 -o 65533 "$src/planted/cells"
run -o "$mnt/planted"
refused "squashed directory with a cells/ of uid 65533" $? 'cells is owned by uid 65533' 'nor by uid 65534'
no_probe_left "$src" && ok "no probe file left after the refusals" || bad "probe file left"

# A user, not root, in a local directory of nobody: its files are its own,
# so it is refused.
as_user() { setpriv --reuid=65533 --regid=65533 --clear-groups env BENCHGRID_STATE="$t/ustate" "$@"; }
install -d -m 0755 -o 65533 -g 65533 "$t/uw"
as_user "$bg" run --work-dir "$t/uw" -q -o "$t/nob" "$t/s.yaml" >"$t/out" 2>&1
refused "uid 65533 in a local directory of nobody" $? 'owned by uid 65534'
no_probe_left "$t/nob" && ok "no probe file left by the user" || bad "probe file left by the user"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
