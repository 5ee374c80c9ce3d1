source ./cal_lib.sh
SCALE=${SCALE:-10}; TX=${TX:-100}; HDD_W=${HDD_W:-300}; HDD_R=${HDD_R:-180}; EXTRA=${EXTRA:-}
mkloop d 4G ext4; mkloop w 2G ext4
model() {  # apply: data X25-M, wal RAID0
  thr $MM_d read_bps 250000000; thr $MM_d write_bps 70000000; thr $MM_d read_iops 35000; thr $MM_d write_iops ${SSD_W:-6400}
  thr $MM_w read_bps 200000000; thr $MM_w write_bps 200000000; thr $MM_w read_iops $HDD_R; thr $MM_w write_iops $HDD_W
}
unmodel() { for m in $MM_d $MM_w; do for k in read_bps write_bps read_iops write_iops; do thr $m $k 0; done; done; }
for wal in ${WALS:-data separate data separate}; do
  rm -rf $MNT_d/pg $MNT_w/wal; CAL_PGDATA=()
  if [[ $wal == data ]]; then pginit $MNT_d/pg/data; else pginit $MNT_d/pg/data $MNT_w/wal; fi
  pgstart $MNT_d/pg/data -c max_connections=50 $EXTRA
  pgb -i -q -s $SCALE >/dev/null 2>&1; psqlc "checkpoint"
  model
  r=$(pgb -c 24 -j 2 -t $TX 2>&1 | grep -E "^tps|latency average")
  unmodel
  echo "wal=$wal scale=$SCALE tx=$TX hdd_w=$HDD_W: $(echo $r | tr '\n' ' ')"
  pgstop $MNT_d/pg/data
done
