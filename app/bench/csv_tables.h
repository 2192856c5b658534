// Reported points as CSV tables, for plotting (scripts/aurora_plots.gnuplot) and spreadsheets.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace isochron::bench {

/// Collects points and writes one CSV file per benchmark, or per benchmark and series when a point
/// carries a "series" field: <benchmark>.csv, <benchmark>-<series>.csv. Columns are the fields in
/// the order first seen; a point without a field leaves its cell empty. [one thread]
class CsvTables {
public:
    void add(const nlohmann::ordered_json& point);
    /// Write every table into `directory` (created if missing); returns the files written.
    /// Throws std::runtime_error if a file cannot be written.
    std::vector<std::filesystem::path> write(const std::filesystem::path& directory) const;

private:
    struct Table {
        std::vector<std::string> columns;
        std::vector<nlohmann::ordered_json> rows;
    };
    std::map<std::string, Table> tables_;
};

}  // namespace isochron::bench
