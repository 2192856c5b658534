#!/usr/bin/env python3
"""Writes a graph of N nodes (chains of five operators, laid out in a grid) for the editor's
pan/zoom measurement: make_large_graph.py 200 > large.isograph.json"""
import json
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
chain = [("generators.signal_generator", {"duration": 1}), ("segments.rewindow", {"window": 1024, "hop": 1024}),
         ("stats.stddev_filter", {"threshold": 0.01}), ("stats.mean_filter", {"threshold": 0.1}), ("io.null_sink", {})]
nodes, edges = [], []
for c in range(count // len(chain)):
    for k, (kind, params) in enumerate(chain):
        node = {"id": f"c{c}_{k}", "type": kind, "position": [k * 220 + (c % 4) * 1200, (c // 4) * 100]}
        if params:
            node["params"] = params
        nodes.append(node)
        if k:
            edges.append({"from": f"c{c}_{k - 1}.out", "to": f"c{c}_{k}.in"})
json.dump({"format": "isochron-graph/1", "name": f"{len(nodes)} nodes", "nodes": nodes, "edges": edges}, sys.stdout, indent=1)
