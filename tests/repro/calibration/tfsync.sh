source ./cal_lib.sh
mkloop a 1G ext4
cd $MNT_a; dd if=/dev/zero of=w bs=8k count=2000 conv=fdatasync 2>/dev/null
for iops in 0 300 6400 0 100 300 6400 0; do thr $MM_a write_iops $iops; echo "write_iops=$iops: 8k O_DSYNC overwrite: $(dd if=/dev/zero of=w bs=8k count=200 oflag=dsync conv=notrunc 2>&1 | tail -1)"; done
thr $MM_a write_iops 0
cd /
