source ./cal_lib.sh
DB=${DB:-64}; DBG=${DBG:-16}; REFILL=${REFILL:-50000000}; PAUSE1=${PAUSE1:-12}; PAUSE2=${PAUSE2:-6}
old_db=$(sysctl -n vm.dirty_bytes); old_dbg=$(sysctl -n vm.dirty_background_bytes); old_r=$(sysctl -n vm.dirty_ratio); old_br=$(sysctl -n vm.dirty_background_ratio)
restore() { sysctl -q vm.dirty_ratio=$old_r vm.dirty_background_ratio=$old_br; touch /tmp/specs-cal-stop; wait; rm -f /tmp/specs-cal-stop; cal_cleanup; }
trap restore EXIT
mkloop a 4G ext4
sysctl -q vm.dirty_ratio=${DR:-1} vm.dirty_background_ratio=${DBR:-0}
thr $MM_a read_bps 930000000; thr $MM_a read_iops 40000; thr $MM_a write_iops 40000
rm -f /tmp/specs-cal-stop
python3 cachemodel.py ${DEV_a#/dev/} $MM_a 544000000 560000000 134000000 $REFILL /tmp/specs-cal-stop &
cd $MNT_a
t() { local s=$(date +%s.%N); "$@"; echo "  $(echo "$(date +%s.%N) - $s" | bc) s"; }
echo "longwrite 1GiB (dd no sync)"; dd if=/dev/zero of=long bs=1M count=1024 2>&1 | tail -1; rm long
sleep $PAUSE1
echo "sweep"; for i in 4 8 16 32 64 128 256 512 1024; do dd if=/dev/zero of=${i}k bs=${i}k count=1k 2>&1 | tail -1; done; rm -f *k
sleep $PAUSE2
echo "iob1"; dd if=/dev/zero of=iob bs=1M count=512 conv=fdatasync 2>&1 | tail -1
echo "iob2"; dd if=/dev/zero of=iob bs=1M count=512 2>&1 | tail -1
echo "iob3"; sync; echo 3 > /proc/sys/vm/drop_caches; dd if=iob of=/dev/null bs=1M 2>&1 | tail -1
echo "iob4"; dd if=iob of=/dev/null bs=1M 2>&1 | tail -1
cd /
