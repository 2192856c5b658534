// The independent reference for an archive's running totals (schema version 4): a scan of every row
// of `segments` and `events`, summed and merged here, not in SQL. checkTotalsMatchRows() requires the
// tables `channel_totals` and `stretches` and ArchiveStore::extent() and coverage() to say exactly
// what the scan says.
#pragma once

#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/archive/archive_store.h"

namespace isochron::test {

/// What one channel (of an item stream: channel 0) holds. [value type]
struct ChannelRows {
    std::int64_t start = 0, stop = 0, pieces = 0, samples = 0, bytes = 0;
    std::vector<std::pair<std::int64_t, std::int64_t>> stretches;  ///< signals: stored [start, stop), adjacent merged

    bool operator==(const ChannelRows&) const = default;
};

/// (stream id, channel) -> what it holds; from the rows when `fromRows`, else from the totals tables.
inline std::map<std::pair<std::int64_t, std::int64_t>, ChannelRows> readChannels(const std::string& path, bool fromRows) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    std::map<std::pair<std::int64_t, std::int64_t>, ChannelRows> channels;
    const auto each = [&](const char* sql, auto&& use) {
        sqlite3_stmt* query = nullptr;
        REQUIRE(sqlite3_prepare_v2(db, sql, -1, &query, nullptr) == SQLITE_OK);
        while (sqlite3_step(query) == SQLITE_ROW) use(query);
        sqlite3_finalize(query);
    };
    const auto column = [](sqlite3_stmt* query, int i) { return sqlite3_column_int64(query, i); };
    if (fromRows) {
        const auto add = [&](sqlite3_stmt* query, std::int64_t channel, bool signal) {
            const std::int64_t start = column(query, 2), length = column(query, 3);
            const auto [found, added] = channels.try_emplace({column(query, 0), channel}, ChannelRows{start, start + length});
            ChannelRows& rows = found->second;
            rows.start = std::min(rows.start, start);
            rows.stop = std::max(rows.stop, start + length);
            ++rows.pieces;
            rows.samples += signal ? length : 0;
            rows.bytes += column(query, 4);
            if (!signal || length == 0) return;
            if (!rows.stretches.empty() && start <= rows.stretches.back().second) {
                rows.stretches.back().second = std::max(rows.stretches.back().second, start + length);
            } else {
                rows.stretches.emplace_back(start, start + length);
            }
        };
        each("SELECT stream, channel, start, length, length(samples) FROM segments ORDER BY stream, channel, start",
             [&](sqlite3_stmt* query) { add(query, column(query, 1), true); });
        each("SELECT stream, 0, start, length, length(CAST(item AS BLOB)) FROM events ORDER BY stream, start", [&](sqlite3_stmt* query) { add(query, 0, false); });
    } else {
        each("SELECT stream, channel, start, stop, pieces, samples, bytes FROM channel_totals", [&](sqlite3_stmt* query) {
            channels[{column(query, 0), column(query, 1)}] = {column(query, 2), column(query, 3), column(query, 4), column(query, 5), column(query, 6)};
        });
        each("SELECT stream, channel, start, stop FROM stretches ORDER BY stream, channel, stop",
             [&](sqlite3_stmt* query) { channels[{column(query, 0), column(query, 1)}].stretches.emplace_back(column(query, 2), column(query, 3)); });
    }
    sqlite3_close(db);
    return channels;
}

/// Each stream's id in the archive at `path`, by name.
inline std::map<std::string, std::int64_t> streamIds(const std::string& path) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* query = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT name, id FROM streams", -1, &query, nullptr) == SQLITE_OK);
    std::map<std::string, std::int64_t> ids;
    while (sqlite3_step(query) == SQLITE_ROW) ids[reinterpret_cast<const char*>(sqlite3_column_text(query, 0))] = sqlite3_column_int64(query, 1);
    sqlite3_finalize(query);
    sqlite3_close(db);
    return ids;
}

/// The archive at `path` keeps totals (version 4), and they, extent() and coverage() equal a scan of its rows.
inline void checkTotalsMatchRows(const std::string& path) {
    const auto scanned = readChannels(path, true);
    const auto kept = readChannels(path, false);
    REQUIRE(kept.size() == scanned.size());
    for (const auto& [key, rows] : scanned) {
        INFO("stream " << key.first << " channel " << key.second << " of " << path);
        REQUIRE(kept.count(key) == 1);
        const ChannelRows& held = kept.at(key);
        CHECK(std::tie(held.start, held.stop, held.pieces, held.samples, held.bytes) == std::tie(rows.start, rows.stop, rows.pieces, rows.samples, rows.bytes));
        CHECK(held.stretches == rows.stretches);
    }
    const std::map<std::string, std::int64_t> ids = streamIds(path);
    ArchiveStore store(path, ArchiveAccess::Read);
    for (const ArchivedStreamInfo& info : store.streams()) {
        ArchivedExtent expected{};
        bool any = false;
        const bool signal = info.kind == ArchivedStreamInfo::Kind::Signal;
        for (int channel = 0; channel < (signal ? info.channels : 1); ++channel) {
            const auto found = scanned.find({ids.at(info.name), channel});
            if (signal) CHECK(store.coverage(info.name, channel) == (found == scanned.end() ? decltype(found->second.stretches){} : found->second.stretches));
            if (found == scanned.end()) continue;
            const ChannelRows& rows = found->second;
            expected = any ? ArchivedExtent{std::min(expected.start, rows.start), std::max(expected.end, rows.stop), expected.rows + rows.pieces,
                                            expected.samples + rows.samples, expected.bytes + rows.bytes}
                           : ArchivedExtent{rows.start, rows.stop, rows.pieces, rows.samples, rows.bytes};
            any = true;
        }
        INFO("stream '" << info.name << "' of " << path);
        const std::optional<ArchivedExtent> extent = store.extent(info.name);
        REQUIRE(extent.has_value() == any);
        if (any) {
            CHECK(std::tie(extent->start, extent->end, extent->rows, extent->samples, extent->bytes) ==
                  std::tie(expected.start, expected.end, expected.rows, expected.samples, expected.bytes));
        }
    }
}

}  // namespace isochron::test
