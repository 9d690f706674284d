// Error values returned by the storage library (no exceptions cross its
// API): robotscan's one Status (robotscan/base/status.h), whose codes
// storage uses as follows:
//   kInvalidArgument  a caller error (bad option, unknown run id);
//   kIoError          the operating system refused a read or write;
//   kDiskFull         SQLITE_FULL: the transaction was rolled back;
//   kBusy             another process holds the write lock;
//   kCorrupt          the file is not a (healthy) SQLite database, or a
//                     stored body does not decode;
//   kSchemaTooNew     written by a newer robotscan; never downgraded;
//   kInternal         any other SQLite failure.
// PostgreSQL (postgresql:// locations) maps to the same codes: a failed
// connection or a lost server is kIoError, disk full (53100) kDiskFull, a
// deadlock or serialization failure (40P01, 40001) kBusy (retried by the
// writers), a constraint or data error (23xxx, 22xxx) kInvalidArgument.
//
// Thread-safety: Status is a plain value type.
#ifndef ROBOTSCAN_STORAGE_STATUS_H_
#define ROBOTSCAN_STORAGE_STATUS_H_

#include "robotscan/base/status.h"

namespace robotscan::storage {

using Status = ::robotscan::Status;
template <typename T>
using Result = ::robotscan::Result<T>;

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_STATUS_H_
