// A small graph several engine suites run: fan-out, and fan-in merged by progress.
#pragma once

namespace isochron::test {

/// test.feed "a" -> x3 (test.gain 3), which feeds merge.a and the collector "tap"; test.feed "b" ->
/// neg (test.gain -1) -> merge.b; merge (by time, through progress) -> the collector "merged".
inline constexpr const char* kFanOutFanInGraph = R"({
  "format": "isochron-graph/1",
  "nodes": [
    {"id": "a", "type": "test.feed", "params": {"name": "a", "type": "scalar"}},
    {"id": "b", "type": "test.feed", "params": {"name": "b", "type": "scalar"}},
    {"id": "x3", "type": "test.gain", "params": {"gain": 3}},
    {"id": "neg", "type": "test.gain", "params": {"gain": -1}},
    {"id": "merge", "type": "test.merge"},
    {"id": "tap", "type": "test.collect", "params": {"name": "tap"}},
    {"id": "out", "type": "test.collect", "params": {"name": "merged"}}
  ],
  "edges": [
    {"from": "a.out0", "to": "x3.in"}, {"from": "x3.out", "to": "merge.a"}, {"from": "x3.out", "to": "tap.in0"},
    {"from": "b.out0", "to": "neg.in"}, {"from": "neg.out", "to": "merge.b"}, {"from": "merge.out", "to": "out.in0"}
  ]
})";

}  // namespace isochron::test
