source ./cal_lib.sh
mkloop a 4G ext4
echo "unthrottled"; dd if=/dev/zero of=$MNT_a/f bs=1M count=512 conv=fdatasync 2>&1 | tail -1
rm $MNT_a/f; dd if=/dev/zero of=$MNT_a/f bs=1M count=512 oflag=direct 2>&1 | tail -1
sync; echo 3 > /proc/sys/vm/drop_caches; dd if=$MNT_a/f of=/dev/null bs=1M 2>&1 | tail -1
thr $MM_a write_bps 134000000
echo "134MB"; rm $MNT_a/f; dd if=/dev/zero of=$MNT_a/f bs=1M count=512 conv=fdatasync 2>&1 | tail -1
