// Queries on the shipped matrix (rules/matrix/, embedded at build time).
#include "catch.h"
#include "rules/matrix.h"

using namespace rocmdoc;

namespace {
const Matrix& shipped() {
  static std::vector<LoadError> errors;
  static Matrix m = Matrix::load(files_under(embedded_rule_files(), "matrix"), errors);
  REQUIRE(errors.empty());
  return m;
}
}  // namespace

TEST_CASE("the matrix maps PCI ids to gfx targets as the kernel does", "[matrix]") {
  const Matrix& m = shipped();
  CHECK(m.device("0x744c")["gfx"] == "gfx1100");  // RX 7900 XTX
  CHECK(m.device("0x744C")["gfx"] == "gfx1100");  // ids compare case-insensitively
  CHECK(m.device("0x73df")["gfx"] == "gfx1031");  // RX 6700 XT
  CHECK(m.device("0x74a1")["gfx"] == "gfx942");   // MI300X
  CHECK(m.device("0x0000").is_null());
  CHECK(m.gfx_target("gfx90a")["kfd_target_version"] == 90010);
  CHECK_FALSE(m.as_of().empty());
}

TEST_CASE("release support is three-valued: listed, not listed, or not known", "[matrix]") {
  const Matrix& m = shipped();
  CHECK(m.gpu_support("6.4.1", "gfx1100").json() == "supported");
  CHECK(m.gpu_support("6.2.4", "gfx1031").json() == "not_listed");
  CHECK(m.gpu_support("7.2.2", "gfx1100").is_unknown());  // the matrix has no GPU list for it
  CHECK(m.gpu_support("1.0", "gfx1100").is_unknown());
  CHECK(m.distro_support("6.4.1", "ubuntu", "24.04").is_true());
  CHECK(m.distro_support("6.4.1", "ubuntu", "20.04").is_false());
  CHECK(m.kernel_support("6.4.1", "ubuntu", "24.04", "6.8.0-45-generic").is_true());
  CHECK(m.kernel_support("6.4.1", "ubuntu", "24.04", "6.15.0-061500-generic").is_false());
  Json newest = m.newest_release_for("gfx1100", "ubuntu", "24.04");
  REQUIRE(newest.is_string());
  CHECK(m.gpu_support(newest.get<std::string>(), "gfx1100").json() == "supported");
  CHECK(m.newest_release_for("gfx1031", "ubuntu", "24.04").is_null());
  CHECK(m.hsa_override("gfx1031")["value"] == "10.3.0");
}

TEST_CASE("the override suggested is the best reported one, and wheel gfx lists are three-valued", "[matrix]") {
  const Matrix& m = shipped();
  CHECK(m.hsa_override("gfx90c")["value"] == "9.0.0");  // 9.0.12 is reported to fail
  CHECK(m.torch_wheel_has_gfx("2.4.1+rocm6.1", "gfx1100").is_true());
  CHECK(m.torch_wheel_has_gfx("2.4.1+rocm6.1", "gfx1031").is_false());
  CHECK(m.torch_wheel_has_gfx("2.7.0+rocm6.3", "gfx1031").is_false());  // listed as absent
  CHECK(m.torch_wheel_has_gfx("2.5.1+rocm6.2", "gfx1100").is_unknown());  // no list known
  CHECK(m.torch_wheel_has_gfx("2.5.1", "gfx1100").is_unknown());  // not a ROCm wheel
}
