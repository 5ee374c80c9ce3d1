source ./cal_lib.sh
SCALE=${SCALE:-10}; MEM=${MEM:-64}; SB=${SB:-16MB}; FS=${FS:-ext4}; BS=${BS:-4096}
RI=${RI:-12000}; WI=${WI:-14000}; W=${W:-5}; RO=${RO:-8}; RW=${RW:-8}
CG=/sys/fs/cgroup/memory/specs-cal-pg
mkdir -p $CG
cgclean() { cal_cleanup_pg; [[ -d $CG ]] && { cat $CG/cgroup.procs | while read p; do echo $p > /sys/fs/cgroup/memory/cgroup.procs; done; rmdir $CG; }; cal_cleanup; }
trap cgclean EXIT
img=/var/tmp/specs-cal-m.img; truncate -s 2G $img; d=$(losetup -f --show $img); CAL_LOOPS+=($d)
if [[ $FS == ext4 ]]; then mkfs.ext4 -q -F -b $BS $d; else mkfs.xfs -q -f -b size=$BS $d >/dev/null; fi
mkdir -p /var/tmp/specs-cal-m; mount -o noatime $d /var/tmp/specs-cal-m; CAL_MNTS+=(/var/tmp/specs-cal-m); MM=$(lsblk -dno MAJ:MIN $d | tr -d ' ')
pginit /var/tmp/specs-cal-m/pg
echo $((MEM*1048576)) > $CG/memory.limit_in_bytes
sh -c "echo \$\$ > $CG/cgroup.procs; exec runuser -u postgres -- $PGBIN/pg_ctl -D /var/tmp/specs-cal-m/pg -w -l /tmp/specs-cal-pg.log -o \"-p $PGPORT -k $PGS -c listen_addresses='' -c shared_buffers=$SB -c random_page_cost=2 -c maintenance_work_mem=16MB\" start" >/dev/null
pgb -i -q -s $SCALE >/dev/null 2>&1; psqlc checkpoint
sync; echo 3 > /proc/sys/vm/drop_caches
thr $MM read_bps 270000000; thr $MM write_bps 130000000; thr $MM read_iops $RI; thr $MM write_iops $WI
hit() { psqlc "select blks_hit||' '||blks_read from pg_stat_database where datname='postgres'"; }
run() { local h0=($(hit)); local r; r=$(pgb "$@" -P 1 2>&1); local h1=($(hit));
  local dh=$((h1[0]-h0[0])) dr=$((h1[1]-h0[1]))
  echo "$*: $(echo "$r" | grep ^tps | awk '{print $3}') tps, hit $(echo "scale=3; $dh/($dh+$dr)" | bc), progress: $(echo "$r" | grep ^progress | awk '{printf "%d ", $4}')"; }
run -S -c 10 -j 2 -T $W
run -S -c 20 -j 2 -T $RO
run -c 20 -j 2 -T $RW
echo "failcnt $(cat $CG/memory.failcnt) max $(($(cat $CG/memory.max_usage_in_bytes)/1048576))MB; disk: $(cat /sys/block/${d#/dev/}/stat | awk '{print "reads", $1, "writes", $5}')"
for k in read_bps write_bps read_iops write_iops; do thr $MM $k 0; done
