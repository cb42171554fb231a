set -u
B=build-gpu/app/pagecurl
mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for r in 1 2 3 4 5 6 7 8; do
  for m in default msaa1; do
    a=""; [ $m = msaa1 ] && a="--msaa 1"
    sh .gpu/run.sh $B --bench --grid 64x90 --frames 1000 $a 2>&1 | grep -E "cpu per frame|render  |frame \(wall\)|chain" | sed "s/^/r$r $m /" | tee -a $OUT/rounds.txt
  done
done
for r in 1 2; do sh .gpu/run.sh $B --bench --grid 64x90 --frames 1000 --quality low 2>&1 | grep -E "cpu per frame" | sed "s/^/r$r low /" | tee -a $OUT/rounds.txt; done
sh .gpu/run.sh sh tools/bench-gpu.sh $B $OUT/sweep .gpu/peers > $OUT/sweep.log 2>&1; tail -12 $OUT/sweep.log
