# Plots of the Aurora scheduling benchmarks (isochron-bench aurora-* --csv DIR), one PNG per figure
# of the paper, written next to the CSV files.
# Usage: gnuplot -e "dir='docs/benchmarks/aurora'" scripts/aurora_plots.gnuplot
if (!exists("dir")) dir = "docs/benchmarks/aurora"
set datafile separator ","
set datafile columnheaders
set terminal pngcairo size 640,420 font ",10"
set key top left
set grid
# The header and the rows of `file` whose column `key` holds `want` (so each curve's points are
# consecutive and joined by lines).
rows(file, key, want) = sprintf("< awk -F, -v key='%s' -v want='%s' 'NR==1{for(i=1;i<=NF;i++)if($i==key)c=i} NR==1||$c==want' %s", key, want, file)
rows2(file, key1, want1, key2, want2) = sprintf("%s | awk -F, -v key='%s' -v want='%s' 'NR==1{for(i=1;i<=NF;i++)if($i==key)c=i} NR==1||$c==want'", rows(file, key1, want1), key2, want2)

set output dir."/aurora-superbox.png"
set title "Fig. 5: box-at-a-time vs Min-Cost superbox (5 trees of 121 boxes)"
set xlabel "capacity (offered work / one core)"
set ylabel "average latency (ms)"
set logscale y
plot for [s in "rr rr:train=1 superbox-mc"] rows(dir."/aurora-superbox.csv", "scheduler", s) \
     using "capacity":"avg_latency_ms" with linespoints title s
unset logscale y

set output dir."/aurora-traversal.png"
set title "Fig. 6: Min-Cost vs Min-Latency traversal (1 tree, capacity 0.5)"
set xlabel "per-item box cost (us)"
set ylabel "average latency (ms)"
set logscale xy
plot for [s in "superbox-mc superbox-ml"] rows(dir."/aurora-traversal.csv", "scheduler", s) \
     using "cost_us":"avg_latency_ms" with linespoints title s
unset logscale xy

set output dir."/aurora-memory.png"
set title "Fig. 7: items queued over a superbox run (1 tree, a burst every period)"
set xlabel "time since the burst arrived (ms)"
set ylabel "queued items (mean over bursts)"
set key top right
plot for [s in "superbox-mm superbox-mc superbox-ml"] rows(dir."/aurora-memory-profile.csv", "scheduler", s) \
     using "phase_ms":"queued_items" with linespoints title s
set key top left

set output dir."/aurora-trains.png"
set title "Fig. 8: round-robin trains (1 tree, fan-out 2, depth 5, capacity 0.5)"
set xlabel "train size (share of the box's queue)"
set ylabel "average latency beyond processing (ms)"
plot for [b in "1 2 4"] rows(dir."/aurora-trains.csv", "burst", b) \
     using "train_fraction":"latency_overhead_ms" with linespoints title "burst ".b

set output dir."/aurora-qos.png"
set title "Fig. 11: QoS-driven vs round-robin (20 chains of 5, tight and loose QoS)"
set xlabel "capacity (offered work / one core)"
set ylabel "average QoS (utility)"
set key bottom left
set yrange [0:1.05]
plot for [a in "even bursty"] for [s in "rr qos"] rows2(dir."/aurora-qos.csv", "arrivals", a, "scheduler", s) \
     using "capacity":"avg_qos" with linespoints title s.", ".a." arrivals"
unset yrange

set output dir."/aurora-bucketing.png"
stats rows(dir."/aurora-bucketing.csv", "scheduler", "qos") using "avg_qos" name "EXACT" nooutput
stats rows(dir."/aurora-bucketing.csv", "scheduler", "qos") using "overhead_pct" name "EXACT_OVERHEAD" nooutput
stats rows(dir."/aurora-bucketing.csv", "scheduler", "rr") using "avg_qos" name "RR" nooutput
set title "Figs. 13-14: bucketed QoS scheduling (200 chains of 5, bursty, capacity 0.8)"
set xlabel "partitions of gradient and of slack (buckets = partitions^2)"
set ylabel "average QoS (utility)"
set y2label "overhead (% of engine CPU)"
set ytics nomirror
set y2tics
set logscale x
set yrange [0.6:1]
set key center right
bucketed = rows(dir."/aurora-bucketing.csv", "scheduler", "qos-bucket")
plot bucketed using "partitions":"avg_qos" with linespoints lc 1 title "qos-bucket: QoS", \
     EXACT_max with lines lc 1 dt 3 title "qos (exact): QoS", \
     RR_max with lines lc 3 dt 3 title "rr: QoS", \
     bucketed using "partitions":"overhead_pct" axes x1y2 with linespoints lc 2 title "qos-bucket: overhead", \
     EXACT_OVERHEAD_max axes x1y2 with lines lc 2 dt 3 title "qos (exact): overhead"
