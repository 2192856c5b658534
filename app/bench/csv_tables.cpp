#include "app/bench/csv_tables.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace isochron::bench {
namespace {

/// A cell: numbers as numbers (booleans as 1/0), text quoted only when it has to be.
std::string cell(const nlohmann::ordered_json& value) {
    if (value.is_boolean()) return value.get<bool>() ? "1" : "0";
    if (value.is_number_float()) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.6g", value.get<double>());
        return buffer;
    }
    if (value.is_number()) return value.dump();
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

}  // namespace

void CsvTables::add(const nlohmann::ordered_json& point) {
    std::string name = point.value("benchmark", std::string("results"));
    if (point.contains("series")) {
        name += '-';
        name += point["series"].get<std::string>();
    }
    Table& table = tables_[name];
    for (const auto& [key, value] : point.items()) {
        if (key == "series") continue;
        if (std::find(table.columns.begin(), table.columns.end(), key) == table.columns.end()) table.columns.push_back(key);
    }
    table.rows.push_back(point);
}

std::vector<std::filesystem::path> CsvTables::write(const std::filesystem::path& directory) const {
    std::filesystem::create_directories(directory);
    std::vector<std::filesystem::path> written;
    for (const auto& [name, table] : tables_) {
        const std::filesystem::path path = directory / (name + ".csv");
        std::ofstream out(path);
        if (!out) throw std::runtime_error("cannot write " + path.string());
        for (std::size_t c = 0; c < table.columns.size(); ++c) out << (c ? "," : "") << table.columns[c];
        out << "\n";
        for (const auto& row : table.rows) {
            for (std::size_t c = 0; c < table.columns.size(); ++c) {
                if (c) out << ",";
                if (row.contains(table.columns[c])) out << cell(row[table.columns[c]]);
            }
            out << "\n";
        }
        written.push_back(path);
    }
    return written;
}

}  // namespace isochron::bench
