source ./cal_lib.sh
SCALE=${SCALE:-10}; CL=${CL:-20}; T=${T:-10}; MEM2=${MEM2:-96}; MEM4=${MEM4:-768}; SB4=${SB4:-4GB}; SC=${SC:-on}
HDD="130000000 130000000 ${HDD_RI:-150} ${HDD_WI:-100}"; CEPH="110000000 110000000 ${CEPH_RI:-8000} ${CEPH_WI:-5000}"
CG=/sys/fs/cgroup/memory/specs-cal-pg
mkdir -p $CG
cgclean() { cal_cleanup_pg; [[ -d $CG ]] && { cat $CG/cgroup.procs | while read p; do echo $p > /sys/fs/cgroup/memory/cgroup.procs; done; rmdir $CG; }; cal_cleanup; }
trap cgclean EXIT
mkloop m 2G ext4; mkloop a 2G ext4; mkloop b 2G ext4
setm() { local mm=$1; shift; thr $mm read_bps $1; thr $mm write_bps $2; thr $mm read_iops $3; thr $mm write_iops $4; }
for sb in ${SBS:-2MB 4GB}; do for t in ${TBS:-a b}; do
  rm -rf $MNT_m/pg; CAL_PGDATA=(); pginit $MNT_m/pg
  mem=$MEM2; [[ $sb != 2MB ]] && mem=$MEM4
  echo 1 > $CG/memory.force_empty 2>/dev/null; echo $((mem*1048576)) > $CG/memory.limit_in_bytes
  sbv=$sb; [[ $sb == 4GB ]] && sbv=$SB4
  sh -c "echo \$\$ > $CG/cgroup.procs; exec runuser -u postgres -- $PGBIN/pg_ctl -D $MNT_m/pg -w -l /tmp/specs-cal-pg.log -o \"-p $PGPORT -k $PGS -c listen_addresses='' -c shared_buffers=$sbv -c max_connections=120 -c synchronous_commit=$SC\" start" >/dev/null
  d=MNT_$t; rm -rf ${!d}/ts; mkdir -p ${!d}/ts; chown postgres ${!d}/ts; psqlc "create tablespace tbs location '${!d}/ts'"
  pgb -i -q -s $SCALE --tablespace=tbs >/dev/null 2>&1; psqlc checkpoint
  sync; echo 3 > /proc/sys/vm/drop_caches
  mm=MM_$t; if [[ $t == a ]]; then setm ${!mm} $HDD; else setm ${!mm} $CEPH; fi
  r=$(pgb -r -c $CL -j 2 -T $T 2>&1)
  setm ${!mm} 0 0 0 0
  echo "sb=$sb tbs=$t mem=${mem}MB: $(echo "$r" | grep ^tps) | lat $(echo "$r" | grep 'latency average') | upd_acc $(echo "$r" | grep 'UPDATE pgbench_accounts' | awk '{print $1}') | failcnt $(cat $CG/memory.failcnt) max $(($(cat $CG/memory.max_usage_in_bytes)/1048576))MB"
  echo 0 > $CG/memory.max_usage_in_bytes; echo 0 > $CG/memory.failcnt
  pgstop $MNT_m/pg
  psqlc "select 1" 2>/dev/null
done; done
