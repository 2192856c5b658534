// isochron-bench: the engine's benchmarks. Results and the machine they ran on go in BENCHMARKS.md.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string_view>

#include "app/bench/benchmark.h"
#include "app/bench/csv_tables.h"
#include "engine/schedulers/scheduler.h"

using namespace isochron;
using namespace isochron::bench;

namespace {

const char* kUsage = R"(Usage: isochron-bench NAME [options]
       isochron-bench --list

Options:
  --scheduler NAME[:k=v,...]  run only this scheduler (default: every scheduler)
  --json                      one JSON object per measured point, one per line
  --csv DIR                   also write each benchmark's points to DIR/<benchmark>.csv
  --seconds S                 measured time per point (default 2)
  --input FILE.wav            audio replayed from memory (default: $ISOCHRON_BENCH_INPUT, else
                              ../shared/data/counting-44k1.wav next to the source tree, the file
                              BENCHMARKS.md's figures used, else the committed
                              samples/data/counting-speech-16k.wav, which a fresh clone has)
  all                         as NAME: run every benchmark
)";

/// The file BENCHMARKS.md's figures used; it lives beside the source tree, not in it.
std::filesystem::path measuredInput() {
    return (std::filesystem::path(ISOCHRON_SOURCE_DIR) / ".." / "shared" / "data" / "counting-44k1.wav").lexically_normal();
}

/// The input of a fresh clone: committed with the samples.
std::filesystem::path committedInput() { return std::filesystem::path(ISOCHRON_SOURCE_DIR) / "samples" / "data" / "counting-speech-16k.wav"; }

std::filesystem::path defaultInput() {
    if (const char* env = std::getenv("ISOCHRON_BENCH_INPUT")) return env;
    return std::filesystem::exists(measuredInput()) ? measuredInput() : committedInput();
}

void printPointAsText(const nlohmann::ordered_json& point) {
    std::string line;
    for (auto& [key, value] : point.items()) {
        if (!line.empty()) line += "  ";
        if (value.is_number_float()) {
            char buffer[64];
            double v = value.get<double>();
            std::snprintf(buffer, sizeof buffer, v >= 1e6 ? "%.4g" : "%.3f", v);
            line += key + "=" + buffer;
        } else {
            line += key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
        }
    }
    std::cout << line << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
    BenchContext context;
    context.input = defaultInput();
    context.samplesDirectory = std::filesystem::path(ISOCHRON_SOURCE_DIR) / "samples";
    bool json = false;
    bool inputGiven = std::getenv("ISOCHRON_BENCH_INPUT") != nullptr;
    std::optional<std::filesystem::path> csvDirectory;
    std::string name;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::cerr << "isochron-bench: " << arg << " needs a value\n";
                std::exit(1);
            }
            return argv[++i];
        };
        if (arg == "--list") {
            for (const auto& b : allBenchmarks()) std::cout << b.name << "  " << b.summary << "\n";
            return 0;
        } else if (arg == "--help" || arg == "-h") {
            std::cout << kUsage;
            return 0;
        } else if (arg == "--json") {
            json = true;
        } else if (arg == "--csv") {
            csvDirectory = value();
        } else if (arg == "--scheduler") {
            context.scheduler = value();
        } else if (arg == "--seconds") {
            context.seconds = std::atof(value().c_str());
        } else if (arg == "--input") {
            context.input = value();
            inputGiven = true;
        } else if (!arg.empty() && arg[0] == '-') {
            std::cerr << "isochron-bench: unknown option " << arg << "\n" << kUsage;
            return 1;
        } else {
            name = arg;
        }
    }
    if (name.empty()) {
        std::cerr << kUsage;
        return 1;
    }
    const bool readsInput = std::any_of(allBenchmarks().begin(), allBenchmarks().end(),
                                        [&](const Benchmark& b) { return (name == "all" || b.name == name) && b.readsInput; });
    if (readsInput && !std::filesystem::exists(context.input)) {
        std::cerr << "isochron-bench: input " << context.input << " not found (use --input FILE.wav)\n";
        return 1;
    }
    if (readsInput && !inputGiven && context.input == committedInput()) {
        std::cerr << "isochron-bench: input " << context.input.string() << " (16 kHz), the committed sample: " << measuredInput().string()
                  << ", which BENCHMARKS.md's figures used, is not there; give it with --input to compare with them\n";
    }
    CsvTables tables;
    Report report = [&](const nlohmann::ordered_json& point) {
        if (json) std::cout << point.dump() << std::endl;
        else printPointAsText(point);
        if (csvDirectory) tables.add(point);
    };
    bool found = false;
    try {
        for (const auto& b : allBenchmarks()) {
            if (name != "all" && b.name != name) continue;
            found = true;
            b.run(context, report);
        }
        if (csvDirectory) {
            for (const auto& path : tables.write(*csvDirectory)) std::cerr << "wrote " << path.string() << "\n";
        }
    } catch (const std::exception& e) {
        std::cerr << "isochron-bench: " << e.what() << "\n";
        return 1;
    }
    if (!found) {
        std::cerr << "isochron-bench: no benchmark named '" << name << "' (see --list)\n";
        return 1;
    }
    return 0;
}
