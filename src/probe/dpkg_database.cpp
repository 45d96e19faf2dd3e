#include "probe/dpkg_database.h"

namespace rocmdoc {

const Result<std::string>& DpkgDatabase::text() {
  if (!text_) text_ = fs_.read_file(kDpkgStatusPath, kDpkgStatusMaxBytes);
  return *text_;
}

const DpkgStatus& DpkgDatabase::status() {
  if (!status_) status_ = text() ? parse_dpkg_status(*text()) : DpkgStatus{};
  return *status_;
}

}  // namespace rocmdoc
