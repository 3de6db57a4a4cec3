# SPDX-License-Identifier: GPL-2.0-only
# The plot of make bench (scripts/bench.sh): alloc+free cost vs size,
# from the data scripts/bench-report.py writes.
#   gnuplot -e "dir='DIR'" scripts/bench-plot.gp
# reads DIR/alloc-free.dat, writes DIR/alloc-free.png.
set terminal pngcairo noenhanced size 900,600
set output dir."/alloc-free.png"
set title "alloc+free with 1000 four-byte objects live, 1 CPU, QEMU -icount\npair: alloc, free; batch: N allocs (at most 1000, 256 KiB), then their frees"
set xlabel "object size (bytes)"
set ylabel "guest instructions per alloc+free"
set logscale xy
set xtics (4, 8, 16, 64, 256, 1024, 4096)
set key bottom right opaque box
set grid
plot dir."/alloc-free.dat" using 1:2 with linespoints lc 1 pt 1 title "base: alloc_percpu, pair", \
     "" using 1:3 with linespoints lc 2 pt 2 title "head: alloc_percpu, pair", \
     "" using 1:4 with linespoints lc 3 pt 7 title "head: cpu_alloc, pair", \
     "" using 1:5 with linespoints lc 1 dt 2 pt 1 title "base: alloc_percpu, batch", \
     "" using 1:6 with linespoints lc 2 dt 2 pt 2 title "head: alloc_percpu, batch", \
     "" using 1:7 with linespoints lc 3 dt 2 pt 7 title "head: cpu_alloc, batch"
