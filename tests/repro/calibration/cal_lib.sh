# calibration helpers: loop devices on /var/tmp/specs-cal-*, blkio throttles, cleanup on exit
set -u
CAL_LOOPS=()
CAL_MNTS=()
cal_cleanup() {
  declare -F cal_cleanup_pg >/dev/null && cal_cleanup_pg
  for d in "${CAL_LOOPS[@]}"; do
    mm=$(lsblk -dno MAJ:MIN "$d" | tr -d ' ')
    for f in write_bps read_bps write_iops read_iops; do echo "$mm 0" > /sys/fs/cgroup/blkio/blkio.throttle.${f}_device 2>/dev/null; done
  done
  for m in "${CAL_MNTS[@]}"; do umount -l "$m" 2>/dev/null; rmdir "$m" 2>/dev/null; done
  for d in "${CAL_LOOPS[@]}"; do losetup -d "$d" 2>/dev/null; done
  rm -f /var/tmp/specs-cal-*.img
}
trap cal_cleanup EXIT
trap 'exit 130' INT TERM
# mkloop NAME SIZE FS -> echo loopdev; mounts at /var/tmp/specs-cal-NAME
mkloop() {
  local n=$1 size=$2 fs=$3 img=/var/tmp/specs-cal-$1.img mnt=/var/tmp/specs-cal-$1
  truncate -s "$size" "$img"
  local d; d=$(losetup -f --show "$img")
  CAL_LOOPS+=("$d")
  if [[ $fs == ext4 ]]; then mkfs.ext4 -q -F "$d"; else mkfs.$fs -q -f "$d" >/dev/null; fi
  mkdir -p "$mnt"; mount -o noatime "$d" "$mnt"; CAL_MNTS+=("$mnt")
  eval "DEV_$n=$d; MNT_$n=$mnt; MM_$n=$(lsblk -dno MAJ:MIN $d | tr -d ' ')"
}
# thr MAJ:MIN key value  (key: write_bps read_bps write_iops read_iops)
thr() { echo "$1 $3" > /sys/fs/cgroup/blkio/blkio.throttle.$2_device; }
PGBIN=/usr/lib/postgresql/15/bin
PGPORT=${PGPORT:-5499}
PGS=/tmp/specs-cal-sock; mkdir -p $PGS; chown postgres $PGS
# pginit DATADIR [WALDIR]: initdb as postgres
pginit() {
  mkdir -p "$1"; chown postgres "$1"
  local w=""; if [[ -n ${2:-} ]]; then mkdir -p "$2"; chown postgres "$2"; w="-X $2"; fi
  runuser -u postgres -- $PGBIN/initdb -A trust -D "$1" $w >/dev/null
  CAL_PGDATA+=("$1")
}
CAL_PGDATA=()
pgstart() { local d=$1; shift; runuser -u postgres -- $PGBIN/pg_ctl -D "$d" -w -l "/tmp/specs-cal-pg.log" -o "-p $PGPORT -k $PGS -c listen_addresses='' $*" start >/dev/null; }
pgstop() { runuser -u postgres -- $PGBIN/pg_ctl -D "$1" -w -m fast stop >/dev/null 2>&1; }
pgb() { runuser -u postgres -- /usr/lib/postgresql/15/bin/pgbench -h $PGS -p $PGPORT "$@" postgres; }
psqlc() { runuser -u postgres -- psql -h $PGS -p $PGPORT -qAt -c "$*" postgres; }
cal_cleanup_pg() { for d in "${CAL_PGDATA[@]}"; do pgstop "$d"; done; }
