// Cost of recording fetches: CrawlStore::AppendFetches in batches of the
// crawler's default size (500), into a fresh database on disk (WAL,
// synchronous=NORMAL, as in a crawl). Bodies are a mix of one shared file
// (deduplicated by hash, as the many identical robots.txt files in a real
// crawl) and per-domain files.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "robotscan/storage/crawl_store.h"

namespace {

namespace robots = robotscan::robots;
using robotscan::storage::CrawlStore;
using robotscan::storage::FetchRecord;
using robotscan::storage::FetchStep;

FetchRecord MakeRecord(std::int64_t i, bool unique_body) {
  FetchRecord r;
  r.domain = "d" + std::to_string(i) + ".bench";
  r.rank = i;
  r.url = "https://" + r.domain + "/robots.txt";
  r.final_url = r.url;
  r.strategy = "https,http";
  r.http_status = 200;
  r.access = robots::AccessClass::kSuccess;
  r.body = "User-agent: *\nDisallow: /private\n";
  if (unique_body) r.body += "# " + r.domain + "\n";
  r.content_type = "text/plain";
  r.content_length = std::to_string(r.body.size());
  r.ip = "192.0.2.1";
  r.dns_ms = 1.5;
  r.connect_ms = 2.5;
  r.first_byte_ms = 4.0;
  r.total_ms = 4.2;
  r.fetched_at = "2026-12-01T12:00:00.123Z";
  FetchStep step;
  step.url = r.url;
  step.http_status = 200;
  step.ip = r.ip;
  step.total_ms = 4.2;
  r.steps.push_back(step);
  return r;
}

void BM_AppendFetchesBatchOf500(benchmark::State& state) {
  const bool unique_bodies = state.range(0) != 0;
  const std::string path =
      (std::filesystem::temp_directory_path() /
       ("crawl_store_bench_" + std::to_string(getpid()) + ".sqlite"))
          .string();
  std::filesystem::remove(path);
  auto store = CrawlStore::Open(path, {});
  if (!store.ok()) {
    state.SkipWithError(store.status().message().c_str());
    return;
  }
  robotscan::storage::RunInfo info;
  info.started_at = "bench";
  const robotscan::storage::Result<std::int64_t> begun =
      store.value()->BeginRun(info);
  if (!begun.ok()) {
    state.SkipWithError("BeginRun failed");
    return;
  }
  const std::int64_t run = *begun;
  std::int64_t next = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<FetchRecord> batch;
    batch.reserve(500);
    for (int i = 0; i < 500; ++i) {
      batch.push_back(MakeRecord(next, unique_bodies && next % 2 == 0));
      ++next;
    }
    state.ResumeTiming();
    if (!store.value()->AppendFetches(run, batch).ok()) {
      state.SkipWithError("AppendFetches failed");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations() * 500);
  store.value().reset();
  std::filesystem::remove(path);
  std::filesystem::remove(path + "-wal");
  std::filesystem::remove(path + "-shm");
}
// 0: every body identical; 1: half the bodies unique. Real time: the
// PostgreSQL variant's work is mostly the server's, which the client's CPU
// time does not see; both are timed alike.
BENCHMARK(BM_AppendFetchesBatchOf500)
    ->Arg(0)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// The same batches into PostgreSQL (the database named by
// ROBOTSCAN_BENCH_PG_URI, emptied first; bench/crawler/scale_out_bench.sh
// starts a local cluster for it): COPY into staging tables and set-wise
// inserts (storage/src/postgres/pg_fetch_writer.h). Skipped without the
// variable.
void BM_AppendFetchesBatchOf500Postgres(benchmark::State& state) {
  const char* uri = std::getenv("ROBOTSCAN_BENCH_PG_URI");
  if (uri == nullptr || *uri == '\0') {
    state.SkipWithError("ROBOTSCAN_BENCH_PG_URI not set");
    return;
  }
  const bool unique_bodies = state.range(0) != 0;
  auto store = CrawlStore::Open(uri, {});
  if (!store.ok()) {
    state.SkipWithError(store.status().message().c_str());
    return;
  }
  robotscan::storage::RunInfo info;
  info.started_at = "bench";
  const robotscan::storage::Result<std::int64_t> begun =
      store.value()->BeginRun(info);
  if (!begun.ok()) {
    state.SkipWithError("BeginRun failed");
    return;
  }
  const std::int64_t run = *begun;
  // Domains of a run of their own: each benchmark run starts with names
  // the database has not seen (as a crawl's first pass over a list).
  std::int64_t next = run * 100000000;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<FetchRecord> batch;
    batch.reserve(500);
    for (int i = 0; i < 500; ++i) {
      batch.push_back(MakeRecord(next, unique_bodies && next % 2 == 0));
      ++next;
    }
    state.ResumeTiming();
    const robotscan::storage::Status s =
        store.value()->AppendFetches(run, batch);
    if (!s.ok()) {
      state.SkipWithError(s.message().c_str());
      break;
    }
  }
  state.SetItemsProcessed(state.iterations() * 500);
}
BENCHMARK(BM_AppendFetchesBatchOf500Postgres)
    ->Arg(0)
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
