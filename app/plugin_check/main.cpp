// isochron-plugin-check: load a plugin the way the host does, validate its manifest and descriptors,
// and run each operator over a matrix of sample rates, segment sizes and random splits, reporting
// crashes, hangs, exceptions, system allocation in the processing hooks and split-dependent
// results. Each operator is checked in a child process under a time limit (isolated_check.h).
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include "app/plugin_check/descriptor_lint.h"
#include "app/plugin_check/harness_operators.h"
#include "app/plugin_check/isolated_check.h"
#include "app/plugin_check/operator_check.h"
#include "engine/plugins/plugin_error.h"
#include "engine/plugins/plugin_host.h"
#include "nodes/register_builtin_nodes.h"

using namespace isochron;

namespace {

// Far above what a sound operator needs (the example plugins' checks take well under a second).
constexpr unsigned kDefaultOperatorTimeoutSeconds = 10;

const char* kUsage = R"(Usage: isochron-plugin-check [options] PLUGIN.so

Loads the plugin as isochron-run would (manifest, ABI, symbols, type names), checks that every
descriptor documents its ports and parameters, then runs each operator over sample rates x
segment splits (whole, 1, 64, 1000, 4096 samples, random) and reports faults, crashes, system
allocations in the processing hooks, and outputs that change with the split. Each operator is
checked in a child process: a crash or an operator still busy after --timeout is reported with the
hook it was in, and the other operators are still checked.

Options:
  --samples N         samples per run (default 32768)
  --random-splits N   random splits per rate (default 3)
  --rates A,B,...     sample rates in Hz (default 8000,44100,48000,96000)
  --timeout SECONDS   time limit for all the checks of one operator (default 10)
  -h, --help          this text

Exit status: 0 no problems, 1 bad usage, 2 problems found (listed).
)";

/// Prints findings under the operator they belong to and counts problems.
class ConsoleReport final : public check::CheckReport {
public:
    void startCell(const std::string&) override { ++runs; }
    void problem(const std::string& text) override {
        ++problems;
        std::cout << "    problem: " << text << "\n" << std::flush;
    }
    void note(const std::string& text) override { std::cout << "    note: " << text << "\n" << std::flush; }
    int problems = 0;
    int runs = 0;
};

std::vector<double> parseRates(const std::string& text) {
    std::vector<double> rates;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const double rate = std::stod(text.substr(start, comma - start));
        if (!(rate > 0)) throw std::invalid_argument("sample rates must be > 0");
        rates.push_back(rate);
        start = comma + 1;
    }
    return rates;
}

// The --timeout value: whole seconds, 1 s to a day.
unsigned parseTimeoutSeconds(const std::string& text) {
    unsigned seconds = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (error != std::errc{} || end != text.data() + text.size() || seconds < 1 || seconds > 86400) {
        throw std::invalid_argument("--timeout needs whole seconds from 1 to 86400, not '" + text + "'");
    }
    return seconds;
}

int checkPlugin(const std::string& file, const check::CheckPlan& plan, unsigned operatorTimeoutSeconds) {
    OperatorRegistry registry;
    registerBuiltinNodes(registry);
    check::registerHarnessOperators(registry);
    PluginHost host(registry);
    std::cout << "isochron-plugin-check " << file << "\n";
    const PluginInfo* plugin = nullptr;
    try {
        plugin = &host.load(file);
    } catch (const PluginError& e) {
        std::cout << "  problem: refused: " << e.what() << "\n1 problem\n";
        return 2;
    }
    std::cout << "  " << plugin->name << " " << plugin->version << ": loaded; the manifest matches the binary ("
              << plugin->operatorTypes.size() << " operators)\n";
    const PluginLibrary& library = *host.library(file);
    ConsoleReport report;
    for (const auto& type : plugin->operatorTypes) {
        std::cout << "  " << type << "\n" << std::flush;
        const int problemsBefore = report.problems;
        for (const auto& shortcoming : check::descriptorShortcomings(*registry.find(type))) report.problem(shortcoming);
        report.runs = 0;
        check::runIsolated([&](check::CheckReport& relay) { check::checkOperator(registry, library, type, plan, relay); }, report,
                           operatorTimeoutSeconds);
        std::cout << "    " << report.runs << " runs, " << (report.problems == problemsBefore ? "no problems" : "problems above") << "\n";
    }
    if (report.problems == 0) {
        std::cout << "OK: no problems\n";
        return 0;
    }
    std::cout << report.problems << (report.problems == 1 ? " problem\n" : " problems\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    check::CheckPlan plan;
    std::string file;
    unsigned operatorTimeoutSeconds = kDefaultOperatorTimeoutSeconds;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string_view arg = argv[i];
            auto value = [&]() -> std::string {
                if (i + 1 >= argc) throw std::invalid_argument(std::string(arg) + " needs a value");
                return argv[++i];
            };
            if (arg == "-h" || arg == "--help") {
                std::cout << kUsage;
                return 0;
            }
            if (arg == "--samples") plan.samples = std::stoll(value());
            else if (arg == "--random-splits") plan.randomSplits = std::stoi(value());
            else if (arg == "--rates") plan.ratesHz = parseRates(value());
            else if (arg == "--timeout") operatorTimeoutSeconds = parseTimeoutSeconds(value());
            else if (!arg.empty() && arg[0] == '-') throw std::invalid_argument("unknown option " + std::string(arg));
            else if (file.empty()) file = arg;
            else throw std::invalid_argument("more than one plugin given");
        }
        if (file.empty()) throw std::invalid_argument("no plugin given (try --help)");
        if (plan.samples < 4096 || plan.randomSplits < 0) throw std::invalid_argument("--samples must be >= 4096 and --random-splits >= 0");
    } catch (const std::exception& e) {
        std::cerr << "isochron-plugin-check: " << e.what() << "\n";
        return 1;
    }
    try {
        return checkPlugin(file, plan, operatorTimeoutSeconds);
    } catch (const std::exception& e) {
        std::cerr << "isochron-plugin-check: " << e.what() << "\n";
        return 1;
    }
}
