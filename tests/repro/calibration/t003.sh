source ./cal_lib.sh
mkloop a 4G xfs
cd $MNT_a
for model in none micron; do
  if [[ $model == micron ]]; then thr $MM_a read_bps 480000000; thr $MM_a write_bps 460000000; thr $MM_a read_iops 93000; thr $MM_a write_iops 31000; fi
  for i in 1 2 3 4 5 6; do echo "$model dd64k x4k fdatasync: $(dd if=/dev/zero of=t bs=64k count=4k conv=fdatasync 2>&1 | tail -1 | awk -F, '{print $NF}')"; rm -f t; done
  sync; echo 3 > /proc/sys/vm/drop_caches; echo "$model hdparm: $(hdparm -t $DEV_a | tail -1)"
done
for k in read_bps write_bps read_iops write_iops; do thr $MM_a $k 0; done
cd /
